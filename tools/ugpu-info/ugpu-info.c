// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu-info: describe every ugpu GPU of the system.
 *
 * Walks the DRM render nodes, keeps those whose driver is "ugpu" and
 * prints what DRM_IOCTL_UGPU_GET_PARAM reports about each: the parameters
 * every family has, then those of the device's family.
 *
 * Usage: ugpu-info [-f] [render node...]
 *   -f  print only "<node> <family> <device>" lines, for scripts
 */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ugpu_drm.h"
#include "ugpu_tool.h"

/* Mali reports up to this many TEXTURE_FEATURES registers. */
#define MALI_MAX_TEXTURE_FEATURES	4
#define MALI_MAX_JOB_SLOTS		32

#define FMT_REG		"0x%08" PRIx64
#define FMT_COUNT	"%" PRIu64

/* A parameter of the device's family, and how to print its value. */
struct param_desc {
	uint32_t param;
	const char *label;
	const char *fmt;
};

/* The label is the name of the parameter after its family prefix. */
#define MALI_PARAM(name, fmt) \
	{ DRM_UGPU_PARAM_MALI_##name, #name, fmt }
#define VIVANTE_PARAM(name, fmt) \
	{ DRM_UGPU_PARAM_VIVANTE_##name, #name, fmt }
#define ADRENO_PARAM(name, fmt) \
	{ DRM_UGPU_PARAM_ADRENO_##name, #name, fmt }

static const struct param_desc mali_params[] = {
	MALI_PARAM(GPU_ID, FMT_REG),
	MALI_PARAM(L2_FEATURES, FMT_REG),
	MALI_PARAM(TILER_FEATURES, FMT_REG),
	MALI_PARAM(MEM_FEATURES, FMT_REG),
	MALI_PARAM(MMU_FEATURES, FMT_REG),
	MALI_PARAM(AS_PRESENT, FMT_REG),
	MALI_PARAM(JS_PRESENT, FMT_REG),
	MALI_PARAM(SHADER_PRESENT, FMT_REG),
	MALI_PARAM(TILER_PRESENT, FMT_REG),
	MALI_PARAM(L2_PRESENT, FMT_REG),
	MALI_PARAM(THREAD_MAX_THREADS, FMT_REG),
	MALI_PARAM(THREAD_FEATURES, FMT_REG),
};

static const struct param_desc vivante_params[] = {
	VIVANTE_PARAM(STREAM_COUNT, FMT_COUNT),
	VIVANTE_PARAM(REGISTER_MAX, FMT_COUNT),
	VIVANTE_PARAM(THREAD_COUNT, FMT_COUNT),
	VIVANTE_PARAM(VERTEX_CACHE_SIZE, FMT_COUNT),
	VIVANTE_PARAM(SHADER_CORE_COUNT, FMT_COUNT),
	VIVANTE_PARAM(PIXEL_PIPES, FMT_COUNT),
	VIVANTE_PARAM(INSTRUCTION_COUNT, FMT_COUNT),
	VIVANTE_PARAM(NUM_CONSTANTS, FMT_COUNT),
	VIVANTE_PARAM(VARYINGS_COUNT, FMT_COUNT),
	VIVANTE_PARAM(MMU_VERSION, FMT_COUNT),
};

static const struct param_desc adreno_params[] = {
	ADRENO_PARAM(GPU_ID, FMT_REG),
	ADRENO_PARAM(SPEED_BIN, FMT_COUNT),
	ADRENO_PARAM(GMEM_BASE, "0x%" PRIx64),
	ADRENO_PARAM(GMEM_SIZE, FMT_COUNT " bytes"),
	ADRENO_PARAM(NUM_CCU, FMT_COUNT),
	ADRENO_PARAM(NUM_SP_CORES, FMT_COUNT),
	ADRENO_PARAM(FIBERS_PER_SP, FMT_COUNT),
	ADRENO_PARAM(REG_SIZE_VEC4, FMT_COUNT),
	ADRENO_PARAM(INSTR_CACHE_SIZE, FMT_COUNT),
	ADRENO_PARAM(TILE_ALIGN_W, FMT_COUNT),
	ADRENO_PARAM(TILE_ALIGN_H, FMT_COUNT),
	ADRENO_PARAM(GMEM_ALIGN_W, FMT_COUNT),
	ADRENO_PARAM(GMEM_ALIGN_H, FMT_COUNT),
	ADRENO_PARAM(TILE_MAX_W, FMT_COUNT),
	ADRENO_PARAM(TILE_MAX_H, FMT_COUNT),
};

/* A flag of a bit mask and its name. */
struct flag_name {
	uint64_t bit;
	const char *name;
};

static const struct flag_name queue_caps[] = {
	{ DRM_UGPU_QUEUE_CAP_JOB_CHAIN, "job-chain" },
	{ DRM_UGPU_QUEUE_CAP_FRAGMENT, "fragment" },
	{ DRM_UGPU_QUEUE_CAP_VERTEX_TILER, "vertex-tiler" },
	{ DRM_UGPU_QUEUE_CAP_COMPUTE, "compute" },
	{ DRM_UGPU_QUEUE_CAP_CMDBUF_3D, "cmdbuf-3d" },
	{ DRM_UGPU_QUEUE_CAP_CMDBUF_2D, "cmdbuf-2d" },
	{ DRM_UGPU_QUEUE_CAP_PM4, "pm4" },
};

#define ADRENO_FEAT(name)	{ DRM_UGPU_ADRENO_FEAT_##name, #name }

static const struct flag_name adreno_features[] = {
	ADRENO_FEAT(SUPPORTS_MULTIVIEW_MASK),
	ADRENO_FEAT(HAS_Z24UINT_S8UINT),
	ADRENO_FEAT(TESS_USE_SHARED),
	ADRENO_FEAT(STORAGE_16BIT),
	ADRENO_FEAT(HAS_TEX_FILTER_CUBIC),
	ADRENO_FEAT(HAS_SAMPLE_LOCATIONS),
	ADRENO_FEAT(HAS_LPAC),
	ADRENO_FEAT(HAS_SHADING_RATE),
	ADRENO_FEAT(HAS_GETFIBERID),
	ADRENO_FEAT(HAS_DP2ACC),
	ADRENO_FEAT(HAS_DP4ACC),
	ADRENO_FEAT(HAS_CP_REG_WRITE),
	ADRENO_FEAT(HAS_8BPP_UBWC),
	ADRENO_FEAT(CCU_CNTL_GMEM_UNK2),
	ADRENO_FEAT(INDIRECT_DRAW_WFM_QUIRK),
	ADRENO_FEAT(DEPTH_BOUNDS_REQUIRE_DEPTH_TEST_QUIRK),
};

/* Indexed by enum drm_ugpu_adreno_magic. */
static const char * const adreno_magic_names[] = {
	[DRM_UGPU_ADRENO_MAGIC_TPL1_DBG_ECO_CNTL] = "TPL1_DBG_ECO_CNTL",
	[DRM_UGPU_ADRENO_MAGIC_PC_POWER_CNTL] = "PC_POWER_CNTL",
	[DRM_UGPU_ADRENO_MAGIC_RB_UNKNOWN_8E04_BLIT] = "RB_UNKNOWN_8E04_BLIT",
};

static bool brief;

static void print_caps(uint64_t caps)
{
	size_t i;

	printf("0x%02" PRIx64, caps);
	for (i = 0; i < ARRAY_SIZE(queue_caps); i++)
		if (caps & queue_caps[i].bit)
			printf(" %s", queue_caps[i].name);
	printf("\n");
}

/* Print one parameter; a failure is reported and counted, not fatal. */
static int show(int fd, const char *label, uint32_t param, uint32_t index,
		const char *fmt)
{
	uint64_t v = 0;
	int ret;

	ret = ugpu_get_param(fd, param, index, &v);
	if (ret) {
		printf("  %-24s error %d (%s)\n", label, ret, strerror(-ret));
		return 1;
	}
	printf("  %-24s ", label);
	printf(fmt, v);
	printf("\n");
	return 0;
}

/* Returns the number of parameters that could not be read. */
static int show_params(int fd, const struct param_desc *params, size_t count)
{
	int errors = 0;
	size_t i;

	for (i = 0; i < count; i++)
		errors += show(fd, params[i].label, params[i].param, 0,
			       params[i].fmt);
	return errors;
}

static int show_mali(int fd)
{
	uint64_t js_present = 0, v = 0;
	int errors;
	uint32_t i;

	errors = show_params(fd, mali_params, ARRAY_SIZE(mali_params));
	ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_JS_PRESENT, 0, &js_present);
	for (i = 0; i < MALI_MAX_JOB_SLOTS; i++) {
		char label[32];

		if (!(js_present & (1ULL << i)))
			continue;
		snprintf(label, sizeof(label), "JS%u_FEATURES", i);
		errors += show(fd, label, DRM_UGPU_PARAM_MALI_JS_FEATURES, i,
			       FMT_REG);
	}
	/* How many texture feature registers exist varies: read to the end. */
	for (i = 0; i < MALI_MAX_TEXTURE_FEATURES; i++) {
		char label[32];

		if (ugpu_get_param(fd, DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES, i,
				   &v))
			break;
		snprintf(label, sizeof(label), "TEXTURE_FEATURES_%u", i);
		printf("  %-24s " FMT_REG "\n", label, v);
	}
	return errors;
}

static int show_vivante(int fd)
{
	return show_params(fd, vivante_params, ARRAY_SIZE(vivante_params));
}

/* The DRM_UGPU_ADRENO_FEAT_* flags of feature word 0, one a line. */
static int show_adreno_features(int fd)
{
	uint64_t features = 0, known = 0;
	size_t i;
	int ret;

	ret = ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 0, &features);
	if (ret) {
		printf("  %-24s error %d (%s)\n", "feature flags", ret,
		       strerror(-ret));
		return 1;
	}
	printf("  %-24s " FMT_REG "\n", "feature flags", features);
	for (i = 0; i < ARRAY_SIZE(adreno_features); i++) {
		known |= adreno_features[i].bit;
		if (features & adreno_features[i].bit)
			printf("    %s\n", adreno_features[i].name);
	}
	if (features & ~known)
		printf("    unknown 0x%" PRIx64 "\n", features & ~known);
	return 0;
}

static int show_adreno(int fd)
{
	uint64_t v = 0;
	int errors, ret;
	uint32_t i;

	errors = show_params(fd, adreno_params, ARRAY_SIZE(adreno_params));
	for (i = 0; i < DRM_UGPU_ADRENO_MAGIC_COUNT; i++) {
		const char *name = i < ARRAY_SIZE(adreno_magic_names) &&
				   adreno_magic_names[i] ?
				   adreno_magic_names[i] : "?";
		char label[32];

		snprintf(label, sizeof(label), "MAGIC[%u]", i);
		ret = ugpu_get_param(fd, DRM_UGPU_PARAM_ADRENO_MAGIC, i, &v);
		if (ret) {
			printf("  %-24s error %d (%s)\n", label, ret,
			       strerror(-ret));
			errors++;
			continue;
		}
		printf("  %-24s " FMT_REG " %s\n", label, v, name);
	}
	return errors + show_adreno_features(fd);
}

/* Returns the number of parameters that could not be read. */
static int describe(int fd, const char *node)
{
	uint64_t family = 0, nwords = 0, nqueues = 0, va_start = 0, va_size = 0;
	uint64_t v = 0;
	char dev[PATH_MAX];
	int errors = 0;
	uint32_t i;
	int ret;

	if (ugpu_device_name(node, dev, sizeof(dev)))
		snprintf(dev, sizeof(dev), "?");
	ret = ugpu_get_param(fd, DRM_UGPU_PARAM_FAMILY, 0, &family);
	if (brief) {
		printf("%s %s %s\n", node,
		       ret ? "unknown" : ugpu_family_name(family), dev);
		return ret ? 1 : 0;
	}

	printf("%s (%s)\n", node, dev);
	if (ret) {
		printf("  family: error %d (%s)\n", ret, strerror(-ret));
		return 1;
	}
	printf("  %-24s %s (%" PRIu64 ")\n", "family",
	       ugpu_family_name(family), family);
	errors += show(fd, "chip model", DRM_UGPU_PARAM_CHIP_MODEL, 0,
		       "0x%04" PRIx64);
	errors += show(fd, "chip revision", DRM_UGPU_PARAM_CHIP_REVISION, 0,
		       "0x%04" PRIx64);
	errors += show(fd, "chip id", DRM_UGPU_PARAM_CHIP_ID, 0,
		       "0x%016" PRIx64);

	if (ugpu_get_param(fd, DRM_UGPU_PARAM_NUM_FEATURE_WORDS, 0, &nwords))
		errors++;
	printf("  %-24s %" PRIu64 "\n", "feature words", nwords);
	for (i = 0; i < nwords; i++) {
		char label[32];

		snprintf(label, sizeof(label), "  features[%u]", i);
		errors += show(fd, label, DRM_UGPU_PARAM_FEATURES, i, FMT_REG);
	}

	if (ugpu_get_param(fd, DRM_UGPU_PARAM_NUM_QUEUES, 0, &nqueues))
		errors++;
	printf("  %-24s %" PRIu64 "\n", "queues", nqueues);
	for (i = 0; i < nqueues; i++) {
		if (ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, i, &v)) {
			printf("    queue %u: caps error\n", i);
			errors++;
			continue;
		}
		printf("    queue %u: caps ", i);
		print_caps(v);
	}

	if (ugpu_get_param(fd, DRM_UGPU_PARAM_VA_START, 0, &va_start) ||
	    ugpu_get_param(fd, DRM_UGPU_PARAM_VA_SIZE, 0, &va_size))
		errors++;
	printf("  %-24s 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64 " MiB)\n",
	       "va range", va_start, va_start + va_size, va_size >> 20);
	errors += show(fd, "contig pool size", DRM_UGPU_PARAM_CONTIG_POOL_SIZE,
		       0, "%" PRIu64 " bytes");
	errors += show(fd, "contig pool free", DRM_UGPU_PARAM_CONTIG_POOL_FREE,
		       0, "%" PRIu64 " bytes");
	errors += show(fd, "timestamp frequency",
		       DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY, 0, "%" PRIu64 " Hz");
	errors += show(fd, "timestamp", DRM_UGPU_PARAM_TIMESTAMP, 0,
		       "%" PRIu64);
	errors += show(fd, "max cmds per submit", DRM_UGPU_PARAM_MAX_CMDS, 0,
		       "%" PRIu64);

	switch (family) {
	case DRM_UGPU_FAMILY_MALI:
		errors += show_mali(fd);
		break;
	case DRM_UGPU_FAMILY_VIVANTE:
		errors += show_vivante(fd);
		break;
	case DRM_UGPU_FAMILY_ADRENO:
		errors += show_adreno(fd);
		break;
	}
	return errors;
}

static int describe_node(int fd, const char *node, void *total_errors)
{
	*(int *)total_errors += describe(fd, node);
	return 0;
}

int main(int argc, char **argv)
{
	int found, failed, errors = 0, opt;

	while ((opt = getopt(argc, argv, "fh")) != -1) {
		switch (opt) {
		case 'f':
			brief = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-f] [render node...]\n",
				argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}

	found = ugpu_visit_nodes(argv + optind, argc - optind, 0,
				 describe_node, &errors, &failed);
	if (!found) {
		fprintf(stderr, "ugpu-info: no ugpu render node found\n");
		return 1;
	}
	if (!brief)
		printf("%d ugpu device(s), %d parameter error(s)\n", found,
		       errors);
	return errors ? 1 : 0;
}
