/* SPDX-License-Identifier: MIT */
/* The one header a test includes, as in IGT. */
#ifndef IGT_H
#define IGT_H

#include "igt_core.h"
#include "igt_aux.h"
#include "drmtest.h"
#include "ioctl_wrappers.h"

#endif /* IGT_H */
