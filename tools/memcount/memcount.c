/*
 * memcount: the bytes a Darknet fork's own parser allocates while it builds a network.
 *
 * Linked against one fork's libdarknet.so (CPU build). This program defines malloc, calloc,
 * realloc and free itself, so every call the library makes resolves here; each forwards to
 * glibc's __libc_* function and keeps the requested size of every live block in a hash table.
 * Counted: the requested bytes, not the allocator's rounding or headers.
 *
 * Usage: memcount-<fork> CFG infer|train
 *   AlexeyAB: infer = parse_network_cfg_custom(cfg, 1, 1)  (what `detector test` builds)
 *             train = parse_network_cfg_custom(cfg, 0, 0)  (what `detector train` builds)
 *   pjreddie: both call parse_network_cfg(cfg); it has no inference-only build.
 * Prints one JSON object on stdout: the live bytes the parse left ("total"), its peak, and per
 * layer the bytes of the blocks that the layer struct points to (followed into a block of
 * sizeof(layer) bytes, an rnn/lstm sub-layer, and into blocks of up to 4 KiB: pointer arrays). "net" is the rest: the workspace,
 * the layers array, the network's own input/truth arrays and small fields. "files" is the part
 * of "total" that read_tree and read_map kept (the data files a cfg names).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dlfcn.h>

#ifdef MEMCOUNT_HANK
/* hank-ai's C++ library: compiled as C++ (g++ -x c++), its types under Darknet:: */
#include "darknet_internal.hpp"
typedef Darknet::Layer layer;
typedef Darknet::Network network;
#define EXTERN_C extern "C"
#else
#include "darknet.h"
#define EXTERN_C
#endif

EXTERN_C void *__libc_malloc(size_t);
EXTERN_C void *__libc_calloc(size_t, size_t);
EXTERN_C void *__libc_realloc(void *, size_t);
EXTERN_C void __libc_free(void *);

#if defined(MEMCOUNT_ALEXEYAB)
network parse_network_cfg_custom(char *filename, int batch, int time_steps);
#endif

#define SLOTS (1u << 23)
typedef struct { uintptr_t key; size_t size; } slot;
static slot *table;
static long long live, peak;
#define TOMB ((uintptr_t)1)

static inline uint32_t hash(uintptr_t p) { return (uint32_t)((p >> 4) * 2654435761u) & (SLOTS - 1); }

static void init_table(void)
{
    if (table) return;
    table = (slot *)mmap(NULL, sizeof(slot) * SLOTS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) abort();
}

static void put(void *p, size_t size)
{
    if (!p) return;
    init_table();
    uint32_t h = hash((uintptr_t)p);
    while (table[h].key > TOMB) h = (h + 1) & (SLOTS - 1);
    table[h].key = (uintptr_t)p;
    table[h].size = size;
    live += (long long)size;
    if (live > peak) peak = live;
}

static slot *find(const void *p)
{
    if (!p || !table) return NULL;
    uint32_t h = hash((uintptr_t)p);
    while (table[h].key) {
        if (table[h].key == (uintptr_t)p) return &table[h];
        h = (h + 1) & (SLOTS - 1);
    }
    return NULL;
}

static void drop(void *p)
{
    slot *s = find(p);
    if (!s) return;
    live -= (long long)s->size;
    s->key = TOMB;
    s->size = 0;
}

EXTERN_C void *malloc(size_t n) { void *p = __libc_malloc(n); put(p, n); return p; }
EXTERN_C void *calloc(size_t a, size_t b) { void *p = __libc_calloc(a, b); put(p, a * b); return p; }
EXTERN_C void free(void *p) { drop(p); __libc_free(p); }
EXTERN_C void *realloc(void *old, size_t n)
{
    void *p = __libc_realloc(old, n);
    if (p || n == 0) { drop(old); put(p, n); }
    return p;
}

/* Bytes left by the readers of the data files a cfg names (a softmax/region `tree=`, a region
 * `map=`): they depend on those files, not on the cfg. The library calls them through its PLT,
 * so these definitions interpose them; each calls the library's own and counts what it kept. */
static long long file_bytes;

#ifndef MEMCOUNT_HANK /* hank's are C++ functions; its tree cfgs fail without data/ anyway */
tree *read_tree(char *filename)
{
    static tree *(*real)(char *);
    if (!real) real = (tree *(*)(char *))dlsym(RTLD_NEXT, "read_tree");
    long long before = live;
    tree *t = real(filename);
    file_bytes += live - before;
    return t;
}

int *read_map(char *filename)
{
    static int *(*real)(char *);
    if (!real) real = (int *(*)(char *))dlsym(RTLD_NEXT, "read_map");
    long long before = live;
    int *m = real(filename);
    file_bytes += live - before;
    return m;
}

#endif

/* blocks already attributed to a layer (a block shared by two layers counts once, for the first) */
#define SEEN_SLOTS (1u << 20)
static uintptr_t *seen;

static int mark(uintptr_t p)
{
    uint32_t h = hash(p) & (SEEN_SLOTS - 1);
    while (seen[h]) {
        if (seen[h] == p) return 0;
        h = (h + 1) & (SEEN_SLOTS - 1);
    }
    seen[h] = p;
    return 1;
}

/* The bytes of the live blocks that the `size` bytes at `p` point to, followed into a block of
 * sizeof(layer) bytes (a sub-layer) and into a small block (an array of pointers, such as an
 * iseg layer's sums); a block counts once. */
static long long owned_words(const void *p, size_t size, int depth)
{
    long long sum = 0;
    const uintptr_t *words = (const uintptr_t *)p;
    for (size_t i = 0; i < size / sizeof(uintptr_t); i++) {
        slot *s = find((const void *)words[i]);
        if (!s || !mark(words[i])) continue;
        sum += (long long)s->size;
        if (depth < 4 && (s->size == sizeof(layer) || s->size <= 4096))
            sum += owned_words((const void *)words[i], s->size, depth + 1);
    }
    return sum;
}

static long long owned(const layer *l) { return owned_words(l, sizeof(layer), 0); }

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "infer") && strcmp(argv[2], "train"))) {
        fprintf(stderr, "usage: %s CFG infer|train\n", argv[0]);
        return 2;
    }
    int train = !strcmp(argv[2], "train");
    /* stdout's buffer is allocated at its first use: let that be now, not inside the parse */
    printf("memcount %s\n", argv[1]);
    fflush(stdout);
    long long before = live;
    peak = live;
#if defined(MEMCOUNT_ALEXEYAB) || defined(MEMCOUNT_HANK)
    network net = parse_network_cfg_custom(argv[1], train ? 0 : 1, train ? 0 : 1);
    network *np = &net;
#else
    (void)train;
    network *np = parse_network_cfg(argv[1]);
#endif
    long long total = live - before;
    seen = (uintptr_t *)__libc_calloc(SEEN_SLOTS, sizeof(uintptr_t));
    mark((uintptr_t)np->layers);
    printf("{\"mode\": \"%s\", \"batch\": %d, \"total\": %lld, \"peak\": %lld, \"workspace\": %lld, \"layers\": [",
           argv[2], np->batch, total, peak - before,
           (long long)(find(np->workspace) ? find(np->workspace)->size : 0));
    long long attributed = 0;
    for (int i = 0; i < np->n; i++) {
        long long b = owned(&np->layers[i]);
        attributed += b;
        printf("%s%lld", i ? ", " : "", b);
    }
    printf("], \"net\": %lld, \"files\": %lld}\n", total - attributed, file_bytes);
    fflush(stdout);
    _exit(0);
}
