// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>
#include <ugpu/ugpu_core.h>

static int __init ugpu_init(void)
{
	return 0;
}
module_init(ugpu_init);

static void __exit ugpu_exit(void)
{
}
module_exit(ugpu_exit);
MODULE_LICENSE("GPL");
