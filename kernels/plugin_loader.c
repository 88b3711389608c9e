/* Plugin loading: dlopen, ABI version check, validation, registration. The library is never
 * closed: its variants (and the kernels they launch) must outlive every run. */
#define _GNU_SOURCE   /* dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plugin_loader.h"
#include "model/case.h"
#include "redfuzz/plugin.h"
#if defined(RF_BACKEND_SIM)
#include "sim/align_probe.h"
#endif

#define RF_REGISTRY_CAPACITY RF_VARIANT_CAPACITY

/* Which plugin each loaded variant came from, so that a contract error found at run time (a
 * broken plan) names the plugin as a load error does. */
typedef struct { const rf_variant *v; const char *path; } owner;
static owner owned[RF_REGISTRY_CAPACITY];
static size_t n_owned;

/* The libraries already registered. One library named twice (REDFUZZ_PLUGINS and --plugin,
 * as the campaign scripts pass both to a shrink, or two paths to one file) is one plugin:
 * dlopen gives back the same handle, and the second load adds nothing instead of failing on
 * its own names ("already registered"). */
static void *loaded[RF_REGISTRY_CAPACITY];
static const char *loaded_path[RF_REGISTRY_CAPACITY];   /* as given to rf_plugin_load */
static size_t n_loaded;

const char *rf_plugin_of(const rf_variant *v) {
  for (size_t i = 0; i < n_owned; i++)
    if (owned[i].v == v) return owned[i].path;
  return NULL;
}

/* The contract rules (include/redfuzz/plugin.h), each checked before anything is registered;
 * every refusal names the plugin, the variant (by index when its name is the problem) and
 * the rule. */

/* 0 when `v` is well formed, else -1 with why (naming the variant) in buf. */
static int check_variant(const rf_variant *v, size_t i, char *buf, size_t len) {
  if (!v) {
    snprintf(buf, len, "variant #%zu: the pointer is NULL (rule: every listed pointer points to "
             "a variant)", i);
    return -1;
  }
  if (!v->name || !v->name[0]) {
    snprintf(buf, len, "variant #%zu: the name is %s (rule: a name \"<op>/<name>\")", i,
             v->name ? "empty" : "NULL");
    return -1;
  }
  if ((unsigned)v->op >= RF_OP_COUNT) {
    snprintf(buf, len, "variant '%.40s' has op %d (allowed: 0..%d)", v->name, (int)v->op,
             RF_OP_COUNT - 1);
    return -1;
  }
  /* The same rule as built-in names and the case's variant field (rf_case_validate): at most
   * RF_VARIANT_NAME_MAX - 1 printable characters, no space, no '#', "<op>/<name>". A name the
   * rule refuses could not be written to a regression file, named in --variant or REDFUZZ_ONLY,
   * or shown on one line. */
  size_t nlen = strnlen(v->name, RF_VARIANT_NAME_MAX);
  if (nlen >= RF_VARIANT_NAME_MAX) {
    char shown[48];
    size_t o = 0;
    for (size_t i = 0; i < 40; i++)
      shown[o++] = (unsigned char)v->name[i] < 0x20 || (unsigned char)v->name[i] >= 0x7f
                       ? '?' : v->name[i];
    shown[o] = '\0';
    snprintf(buf, len, "variant name '%s...' is too long (allowed: at most %d characters)",
             shown, RF_VARIANT_NAME_MAX - 1);
    return -1;
  }
  rf_case c;
  rf_case_default(&c);
  c.op = v->op;
  if (rf_op_has_rows(c.op)) c.n = 0;
  memcpy(c.variant, v->name, nlen + 1);
  char why[400];
  if (rf_case_validate(&c, NULL, why, sizeof why)) {
    snprintf(buf, len, "plugin %s", why);
    return -1;
  }
  /* --only, --skip, --variant lists and REDFUZZ_ONLY are comma separated: a name with a
   * comma could be loaded but never selected. */
  if (strchr(v->name, ',')) {
    snprintf(buf, len, "variant '%s': the name has a ',' (rule: no ',' in a name; selection "
             "lists are comma separated)", v->name);
    return -1;
  }
  if (!v->summary || !v->constraints || !v->configure || !v->scratch_bytes || !v->plan ||
      !v->launch) {
    snprintf(buf, len, "variant '%s' leaves summary, constraints, configure, scratch_bytes, "
             "plan or launch NULL (all are required)", v->name);
    return -1;
  }
  if ((unsigned)v->in_dtype >= RF_DTYPE_COUNT || (unsigned)v->out_dtype >= RF_DTYPE_COUNT ||
      (v->out_dtype != v->in_dtype && v->out_dtype != RF_DTYPE_F32) ||
      ((v->op == RF_OP_ARGMAX || v->op == RF_OP_ARGMIN) && v->out_dtype != RF_DTYPE_F32)) {
    snprintf(buf, len, "variant '%s': in_dtype %d, out_dtype %d are not allowed (allowed: "
             "in_dtype 0..%d; out_dtype the in_dtype or 0 = f32; argmax, argmin: out_dtype 0)", v->name,
             (int)v->in_dtype, (int)v->out_dtype, RF_DTYPE_COUNT - 1);
    return -1;
  }
  if (v->contract & ~rf_contract_allowed(v->op)) {
    snprintf(buf, len, "variant '%s': contract 0x%x has bits its op does not take (allowed: "
             "0x%x, RF_CONTRACT_* in include/redfuzz/variant.h)", v->name, (unsigned)v->contract,
             (unsigned)rf_contract_allowed(v->op));
    return -1;
  }
  const int arg = v->op == RF_OP_ARGMAX || v->op == RF_OP_ARGMIN;
  if ((v->index_bits != 0 && v->index_bits != 32 && v->index_bits != 64) ||
      (v->index_bits && !arg)) {
    snprintf(buf, len, "variant '%s': index_bits %u is not allowed (allowed: argmax, argmin: 0, "
             "32 or 64; other ops: 0)", v->name, (unsigned)v->index_bits);
    return -1;
  }
  if (rf_variant_find(v->name)) {
    snprintf(buf, len, "variant '%s' is already registered", v->name);
    return -1;
  }
  return 0;
}

/* The count comes first: the list is read (copied, checked) only once it is known to fit (a
 * plugin's *count of SIZE_MAX would otherwise walk off its array). */
static int check_count(const char *path, size_t count, char *err, size_t errlen) {
  if (count <= RF_REGISTRY_CAPACITY - rf_variant_count()) return 0;
  snprintf(err, errlen, "plugin %s: rf_plugin_variants gave count %zu, which does not fit in "
           "the registry (rule: at most %zu more variants; %zu of %d taken)", path, count,
           RF_REGISTRY_CAPACITY - rf_variant_count(), rf_variant_count(), RF_REGISTRY_CAPACITY);
  return -1;
}

/* Checks the whole list (the copies) before registering anything, so a bad plugin adds
 * nothing. */
static int check_all(const char *path, const rf_variant **vs, size_t count, char *err,
                     size_t errlen) {
  char why[256];
  for (size_t i = 0; i < count; i++) {
    int bad = check_variant(vs[i], i, why, sizeof why);
    for (size_t j = 0; !bad && j < i; j++)
      if (strcmp(vs[j]->name, vs[i]->name) == 0) {
        snprintf(why, sizeof why, "variant '%s' appears twice", vs[i]->name);
        bad = -1;
      }
    if (bad) {
      snprintf(err, errlen, "plugin %s: %s", path, why);
      return -1;
    }
  }
  return 0;
}

/* Where each loaded plugin's code lies (its PT_LOAD segments), for rf_plugin_at. */
typedef struct { uintptr_t lo, hi; const char *path; } image;
static image images[RF_REGISTRY_CAPACITY];
static size_t n_images;
static const char *volatile loading_path;   /* rf_plugin_loading */

const char *rf_plugin_at(const void *addr) {
  for (size_t i = 0; i < n_images; i++)
    if ((uintptr_t)addr >= images[i].lo && (uintptr_t)addr < images[i].hi) return images[i].path;
  return NULL;
}

const char *rf_plugin_loading(void) { return loading_path; }

/* The loaded object that holds the address in ctx->lo: its lowest and highest address. */
static int holder(struct dl_phdr_info *info, size_t size, void *ctx) {
  (void)size;
  image *im = ctx;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (unsigned i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    const uintptr_t a = info->dlpi_addr + ph->p_vaddr;
    if (a < lo) lo = a;
    if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
  }
  if (im->lo < lo || im->lo >= hi) return 0;
  im->lo = lo;
  im->hi = hi;
  return 1;
}

static void remember_image(const void *code, const char *path) {
  image im = {.lo = (uintptr_t)code, .path = path};
  if (n_images < RF_REGISTRY_CAPACITY && dl_iterate_phdr(holder, &im)) images[n_images++] = im;
}

/* A plugin's variant as the registry holds it: a copy made as soon as the list is read, with
 * its strings (the name, at most RF_VARIANT_NAME_MAX characters kept: a longer one is refused
 * by the name rule; summary and constraints, one line each, cut at RF_PLUGIN_TEXT_MAX - 1).
 * Checked, registered and printed from here, so the table, the case lines and the launches
 * all see the variant as it was loaded, whatever the plugin writes into its own struct
 * later. A plugin of an older ABI version gets the later fields' defaults (0: no contract
 * bit, a 32-bit argmax index; plugin.h): only its version's fields are read. */
#define RF_PLUGIN_TEXT_MAX 512
typedef struct {
  rf_variant v;
  char name[RF_VARIANT_NAME_MAX + 1];
  char summary[RF_PLUGIN_TEXT_MAX], constraints[RF_PLUGIN_TEXT_MAX];
} frozen;

static void copy_text(char *dst, size_t cap, const char *src) {
  const size_t n = strnlen(src, cap - 1);
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* The copies (lives as long as the process) and an array of pointers to them (the caller
 * frees it), NULL pointers kept NULL; NULL when out of memory. */
static const rf_variant **freeze(int version, const rf_variant *const *vs, size_t count,
                                 frozen **store) {
  /* the end of the version's struct: 3 before `contract`, 4 before `index_bits` */
  const size_t prefix = version == 3 ? offsetof(rf_variant, contract)
                      : version == 4 ? offsetof(rf_variant, index_bits) : sizeof(rf_variant);
  const rf_variant **out = calloc(count ? count : 1, sizeof *out);
  frozen *copies = calloc(count ? count : 1, sizeof *copies);
  if (!out || !copies) {
    free(out);
    free(copies);
    return NULL;
  }
  for (size_t i = 0; i < count; i++) {
    if (!vs[i]) continue;   /* a NULL pointer stays one: check_variant says so */
    frozen *f = &copies[i];
    memcpy(&f->v, vs[i], prefix);
    if (f->v.name) {
      copy_text(f->name, sizeof f->name, f->v.name);
      f->v.name = f->name;
    }
    if (f->v.summary) {
      copy_text(f->summary, sizeof f->summary, f->v.summary);
      f->v.summary = f->summary;
    }
    if (f->v.constraints) {
      copy_text(f->constraints, sizeof f->constraints, f->v.constraints);
      f->v.constraints = f->constraints;
    }
    out[i] = &f->v;
  }
  *store = copies;
  return out;
}

#if defined(RF_BACKEND_SIM)
/* What an old plugin without a probe is asked with: no check runs in it. */
static float rf_unchecked_probe(const void *p) {
  (void)p;
  return 0.0f;
}
#endif

/* The plain simulator build turns a misaligned vector access in a kernel into `crash`
 * (-fsanitize=alignment's check, sim/align_report.cpp): a plugin compiled without the check
 * would run its float4 loads unchecked and pass every sweep. Its alignment probe (plugin.h)
 * tells: refused, naming the flag, when the check did not run in it. Where this program has no
 * alignment verdict (sanitizer builds, the libFuzzer target: sim/align_probe.h) there is
 * nothing to ask. 0 when fine. */
static int check_alignment(void *lib, const char *path, char *err, size_t errlen) {
#if defined(RF_BACKEND_SIM)
  rf_plugin_align_probe_fn probe = (rf_plugin_align_probe_fn)dlsym(lib, RF_PLUGIN_ALIGN_PROBE_SYMBOL);
  if (rf_sim_alignment_probe(probe ? probe : rf_unchecked_probe) != 0) return 0;  /* 1 or -1 */
  snprintf(err, errlen, "plugin %s: built without -fsanitize=alignment (%s): a misaligned "
           "vector access in its kernels (a float4 load from an address that is not a multiple "
           "of 16) would not be reported in this simulator build, where the GPU faults. "
           "Rebuild it with scripts/redfuzz-plugin, or add -fsanitize=alignment "
           "(include/redfuzz/plugin.h, BUILD RECIPES)", path,
           probe ? "its alignment probe raised no check" : "no " RF_PLUGIN_ALIGN_PROBE_SYMBOL
           " probe: plugin.h older than this redfuzz");
  return -1;
#else
  (void)lib;
  (void)path;
  (void)err;
  (void)errlen;
  return 0;
#endif
}

static int load(const char *path, char *err, size_t errlen) {
  /* A path without '/' would be searched in the library path; the user means a file. */
  char local[4096];
  if (!strchr(path, '/')) snprintf(local, sizeof local, "./%s", path);
  void *lib = dlopen(strchr(path, '/') ? path : local, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(err, errlen, "plugin %s: cannot load: %s", path, dlerror());
    return -1;
  }
  for (size_t i = 0; i < n_loaded; i++)
    if (loaded[i] == lib) {
      dlclose(lib);   /* drops the reference this dlopen added; the library stays */
      return 0;
    }
  rf_plugin_abi_version_fn version = (rf_plugin_abi_version_fn)dlsym(lib, "rf_plugin_abi_version");
  rf_plugin_variants_fn variants = (rf_plugin_variants_fn)dlsym(lib, "rf_plugin_variants");
  if (!version || !variants) {
    snprintf(err, errlen, "plugin %s: not a redfuzz plugin (it must export rf_plugin_abi_version "
             "and rf_plugin_variants, see include/redfuzz/plugin.h)", path);
    dlclose(lib);
    return -1;
  }
  const int found = version();
  if (found < RF_PLUGIN_ABI_OLDEST || found > RF_PLUGIN_ABI_VERSION) {
    snprintf(err, errlen, "plugin %s: ABI version %d, but this redfuzz expects %d..%d (rebuild "
             "it against this redfuzz's include/redfuzz/plugin.h)", path, found,
             RF_PLUGIN_ABI_OLDEST, RF_PLUGIN_ABI_VERSION);
    dlclose(lib);
    return -1;
  }
  /* The plugin's compile flags must match: redfuzz's own sanitizer (RF_PLUGIN_SANITIZER as
   * this file was compiled) against the marker plugin.h compiled into the plugin. A plugin
   * without the marker predates it; only a sanitizer build needs to know, so only there is
   * it refused. */
  const char *theirs = (const char *)dlsym(lib, RF_PLUGIN_SANITIZER_SYMBOL);
  const char *ours = RF_PLUGIN_SANITIZER;
  if (theirs ? strcmp(theirs, ours) != 0 : strcmp(ours, "none") != 0) {
    snprintf(err, errlen, "plugin %s: built with sanitizer '%s', but this redfuzz is built with "
             "'%s' (REDFUZZ_SANITIZE): its kernels would %s. Rebuild the plugin with the flags "
             "of this build (%s), e.g. in this CMake build tree next to redfuzz, or load it "
             "into a redfuzz built like it", path, theirs ? theirs : "unknown (no "
             RF_PLUGIN_SANITIZER_SYMBOL " marker: plugin.h older than this redfuzz)", ours,
             strcmp(ours, "thread") == 0 ? "run uninstrumented and their races be missed"
             : strcmp(ours, "address") == 0 ? "run unchecked and their overruns be missed"
             : "need a sanitizer runtime this redfuzz does not have",
             strcmp(ours, "thread") == 0 ? "-fsanitize=thread"
             : strcmp(ours, "address") == 0 ? "-fsanitize=address" : "no -fsanitize");
    dlclose(lib);
    return -1;
  }
  if (check_alignment(lib, path, err, errlen)) {
    dlclose(lib);
    return -1;
  }
  size_t count = 0;
  const rf_variant *const *vs = variants(&count);
  if (!vs && count) {
    snprintf(err, errlen, "plugin %s: rf_plugin_variants returned NULL with count %zu", path,
             count);
    dlclose(lib);
    return -1;
  }
  if (check_count(path, count, err, errlen)) {
    dlclose(lib);
    return -1;
  }
  frozen *store = NULL;
  const rf_variant **copies = freeze(found, vs, count, &store);
  if (!copies) {
    snprintf(err, errlen, "plugin %s: out of memory for its %zu variants", path, count);
    dlclose(lib);
    return -1;
  }
  if (check_all(path, copies, count, err, errlen)) {
    free(copies);
    free(store);
    dlclose(lib);
    return -1;
  }
  const char *kept = strdup(path);   /* for rf_plugin_of; lives as long as the library */
  remember_image((const void *)variants, kept ? kept : "?");
  if (n_loaded < RF_REGISTRY_CAPACITY) {   /* a plugin adds >= 1 */
    loaded_path[n_loaded] = kept ? kept : "?";
    loaded[n_loaded++] = lib;
  }
  for (size_t i = 0; i < count; i++) {
    rf_variant_register(copies[i]);   /* checked above: cannot fail */
    if (n_owned < RF_REGISTRY_CAPACITY) owned[n_owned++] = (owner){copies[i], kept ? kept : "?"};
  }
  free(copies);   /* the registry keeps the pointers; the copies themselves live on */
  return (int)count;
}

int rf_plugin_load(const char *path, char *err, size_t errlen) {
  loading_path = path;
  const int n = load(path, err, errlen);
  loading_path = NULL;
  return n;
}

void rf_plugin_name_of_path(const char *path, char *buf, size_t len) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (strncmp(base, "lib", 3) == 0 && base[3]) base += 3;
  size_t n = strlen(base);
  const char *so = strstr(base, ".so");
  while (so && so[3] != '\0' && so[3] != '.') so = strstr(so + 1, ".so");   /* .so or .so.1 */
  if (so && so > base) n = (size_t)(so - base);
  snprintf(buf, len, "%.*s", (int)n, base);
}

int rf_plugin_loaded_names(char *buf, size_t len, char *err, size_t errlen) {
  size_t used = 0;
  if (len) buf[0] = '\0';
  for (size_t i = 0; i < n_loaded; i++) {
    char name[256];
    rf_plugin_name_of_path(loaded_path[i], name, sizeof name);
    int ok = name[0] != '\0';
    for (const char *p = name; ok && *p; p++) ok = rf_name_char_ok((unsigned char)*p) && *p != ',';
    if (!ok) {
      char shown[300];
      rf_text_escape(name, shown, sizeof shown);
      snprintf(err, errlen, "plugin %s: its name '%s' cannot be recorded in a case file (allowed: "
               "printable characters without spaces, ',' or '#'; rename the library)",
               loaded_path[i], shown);
      return -1;
    }
    int w = snprintf(buf + used, len > used ? len - used : 0, "%s%s", i ? "," : "", name);
    if (w < 0 || used + (size_t)w >= len) {
      snprintf(err, errlen, "the names of the %zu plugins loaded are longer than %zu characters "
               "(allowed in a case file: at most that many)", n_loaded, len ? len - 1 : 0);
      return -1;
    }
    used += (size_t)w;
  }
  return 0;
}

const char *rf_plugin_loaded_path(const char *name) {
  for (size_t i = 0; i < n_loaded; i++) {
    char own[256];
    rf_plugin_name_of_path(loaded_path[i], own, sizeof own);
    if (strcmp(own, name) == 0) return loaded_path[i];
  }
  return NULL;
}

int rf_plugin_load_list(const char *paths, char *err, size_t errlen) {
  char path[4096];
  for (const char *p = paths; *p;) {
    const char *colon = strchr(p, ':');
    const size_t len = colon ? (size_t)(colon - p) : strlen(p);
    if (len >= sizeof path) {
      snprintf(err, errlen, "plugin path too long: '%.*s...'", 64, p);
      return -1;
    }
    memcpy(path, p, len);
    path[len] = '\0';
    if (len && rf_plugin_load(path, err, errlen) < 0) return -1;
    p += len + (colon ? 1 : 0);
  }
  return 0;
}
