/*
 * _zfscomp: the block compressors of OpenZFS, for measuring what a dataset would store.
 *
 * Each function compresses one logical block the way the OpenZFS kernel module does and
 * returns the size ZFS would record as the block's compressed length (the algorithm's own
 * header included), or -1 when ZFS would store the block uncompressed. `d_len` is the
 * budget zio_compress_data() hands the compressor (zio.c, zio_get_compression_max_size()).
 *
 *  lz4   the LZ4 variant in module/zfs/lz4_zfs.c (LZ4 r85-era, hash log 12, a 16-bit
 *        table of 2^13 entries below 64 KiB + 11 bytes), preceded by a 4-byte length;
 *        its output-space checks are conservative and are reproduced as they are, since
 *        they decide whether a block fits. Written here from the algorithm description,
 *        and checked byte for byte against that file in tests/core/compression/test_zfs_compressors.py.
 *  zstd  libzstd 1.4.5 (the version in module/zstd/lib) with the settings of
 *        zfs_zstd.c: magicless frame, no checksum, no content size, 8-byte ZFS header.
 *  zle   module/zfs/zle.c (zero-length encoding, n = 64).
 *  lzjb  module/zfs/lzjb.c, with a 1 KiB-aligned source buffer.
 *
 * gzip is left to Python's zlib (the same deflate with window 15 and memory level 8).
 * Little-endian hosts (x86, ARM), as the LZ4 hash reads native 32-bit words.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ZSTD_STATIC_LINKING_ONLY
#include "zstd.h"

/* ------------------------------------------------------------------ lz4 (ZFS variant) */

#define LZ_MINMATCH 4
#define LZ_MFLIMIT 12          /* COPYLENGTH (8) + MINMATCH */
#define LZ_LASTLITERALS 5
#define LZ_MINLENGTH 13
#define LZ_MAX_DISTANCE 65535
#define LZ_SKIP 6              /* NOTCOMPRESSIBLE_CONFIRMATION */
#define LZ_SMALL_LIMIT (65536 + LZ_MFLIMIT - 1)
#define LZ_ML_MASK 15u
#define LZ_RUN_MASK 15u

static inline uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint32_t lz_hash(uint32_t v, int log)
{
    return (uint32_t)(v * 2654435761U) >> (32 - log);
}

/* Bytes equal at a and b, stopping before `limit` (a < limit). */
static inline size_t common_length(const uint8_t *a, const uint8_t *b, const uint8_t *limit)
{
    const uint8_t *start = a;
    while (a + 8 <= limit) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return (size_t)(a - start) + (size_t)(__builtin_ctzll(x ^ y) >> 3);
        a += 8;
        b += 8;
    }
    while (a < limit && *a == *b) {
        a++;
        b++;
    }
    return (size_t)(a - start);
}

/*
 * One compressor for both table layouts of lz4_zfs.c: `small` is LZ4_compress64kCtx()
 * (16-bit positions, hash log 13, no distance test), otherwise LZ4_compressCtx() (32-bit
 * positions, hash log 12, matches at most 65535 bytes back). Returns the output length, or
 * 0 where the original gives up for lack of room.
 */
static int lz4_zfs_block(const uint8_t *src, int isize, uint8_t *dst, int osize, int small)
{
    static uint32_t table32[1 << 12];
    static uint16_t table16[1 << 13];
    const int log = small ? 13 : 12;
    const uint8_t *ip = src, *anchor = src;
    const uint8_t *const iend = src + isize;
    const uint8_t *const mflimit = iend - LZ_MFLIMIT;
    const uint8_t *const matchlimit = iend - LZ_LASTLITERALS;
    uint8_t *op = dst;
    uint8_t *const oend = dst + osize;
    uint32_t fwd_h;

#define GET(h) (small ? (uint32_t)table16[h] : table32[h])
#define PUT(h, pos) do { if (small) table16[h] = (uint16_t)(pos); else table32[h] = (uint32_t)(pos); } while (0)

    if (small)
        memset(table16, 0, sizeof(table16));
    else
        memset(table32, 0, sizeof(table32));

    if (isize < LZ_MINLENGTH)
        goto last_literals;

    if (!small)
        PUT(lz_hash(rd32(ip), log), 0);
    ip++;
    fwd_h = lz_hash(rd32(ip), log);

    for (;;) {
        int attempts = (1 << LZ_SKIP) + 3;
        const uint8_t *fwd = ip;
        const uint8_t *ref;
        uint8_t *token;
        size_t length, len;

        /* look for a match, striding faster the longer none is found */
        for (;;) {
            uint32_t h = fwd_h;
            int step = attempts++ >> LZ_SKIP;
            ip = fwd;
            fwd = ip + step;
            if (fwd > mflimit)
                goto last_literals;
            fwd_h = lz_hash(rd32(fwd), log);
            ref = src + GET(h);
            PUT(h, ip - src);
            if (!small && (ip - ref) > LZ_MAX_DISTANCE)
                continue;
            if (rd32(ref) == rd32(ip))
                break;
        }
        /* extend backwards */
        while (ip > anchor && ref > src && ip[-1] == ref[-1]) {
            ip--;
            ref--;
        }
        length = (size_t)(ip - anchor);
        token = op++;
        if (op + length + (2 + 1 + LZ_LASTLITERALS) + (length >> 8) > oend)
            return 0;
        if (length >= LZ_RUN_MASK) {
            *token = (uint8_t)(LZ_RUN_MASK << 4);
            len = length - LZ_RUN_MASK;
            for (; len > 254; len -= 255)
                *op++ = 255;
            *op++ = (uint8_t)len;
        } else {
            *token = (uint8_t)(length << 4);
        }
        memcpy(op, anchor, length);
        op += length;

        for (;;) {
            /* offset, then the match length */
            uint16_t off = (uint16_t)(ip - ref);
            *op++ = (uint8_t)(off & 0xff);
            *op++ = (uint8_t)(off >> 8);
            ip += LZ_MINMATCH;
            ref += LZ_MINMATCH;
            anchor = ip;
            if (ip < matchlimit)
                ip += common_length(ip, ref, matchlimit);
            len = (size_t)(ip - anchor);
            if (op + (1 + LZ_LASTLITERALS) + (len >> 8) > oend)
                return 0;
            if (len >= LZ_ML_MASK) {
                *token += LZ_ML_MASK;
                len -= LZ_ML_MASK;
                for (; len > 509; len -= 510) {
                    *op++ = 255;
                    *op++ = 255;
                }
                if (len > 254) {
                    len -= 255;
                    *op++ = 255;
                }
                *op++ = (uint8_t)len;
            } else {
                *token += (uint8_t)len;
            }
            if (ip > mflimit) {
                anchor = ip;
                goto last_literals;
            }
            PUT(lz_hash(rd32(ip - 2), log), ip - 2 - src);
            {
                uint32_t h = lz_hash(rd32(ip), log);
                ref = src + GET(h);
                PUT(h, ip - src);
            }
            if ((small || (ip - ref) < LZ_MAX_DISTANCE + 1) && rd32(ref) == rd32(ip)) {
                token = op++;
                *token = 0;
                continue;
            }
            break;
        }
        anchor = ip++;
        fwd_h = lz_hash(rd32(ip), log);
    }

last_literals:
    {
        size_t last = (size_t)(iend - anchor);
        if (op + last + 1 + ((last + 255 - LZ_RUN_MASK) / 255) > oend)
            return 0;
        if (last >= LZ_RUN_MASK) {
            *op++ = (uint8_t)(LZ_RUN_MASK << 4);
            last -= LZ_RUN_MASK;
            for (; last > 254; last -= 255)
                *op++ = 255;
            *op++ = (uint8_t)last;
        } else {
            *op++ = (uint8_t)(last << 4);
        }
        memcpy(op, anchor, (size_t)(iend - anchor));
        op += iend - anchor;
    }
    return (int)(op - dst);
#undef GET
#undef PUT
}

/* zfs_lz4_compress_buf(): 4-byte length + block; s_len when it does not fit. */
static size_t zfs_lz4(const uint8_t *src, size_t s_len, uint8_t *dst, size_t d_len)
{
    int n;
    if (d_len < 4)
        return s_len;
    n = lz4_zfs_block(src, (int)s_len, dst + 4, (int)(d_len - 4), s_len < LZ_SMALL_LIMIT);
    if (n == 0)
        return s_len;
    dst[0] = (uint8_t)(n >> 24);
    dst[1] = (uint8_t)(n >> 16);
    dst[2] = (uint8_t)(n >> 8);
    dst[3] = (uint8_t)n;
    return (size_t)n + 4;
}

/* ------------------------------------------------------------------ zstd (libzstd 1.4.5) */

#define ZFS_ZSTD_HDR 8

static ZSTD_CCtx *zstd_cctx;

/* zfs_zstd_compress_impl(): a fresh compression (as a newly created context) at `level`. */
static size_t zfs_zstd(const uint8_t *src, size_t s_len, uint8_t *dst, size_t d_len, int level)
{
    size_t c;
    if (d_len < ZFS_ZSTD_HDR)
        return s_len;
    if (zstd_cctx == NULL) {
        zstd_cctx = ZSTD_createCCtx();
        if (zstd_cctx == NULL)
            return s_len;
    }
    ZSTD_CCtx_reset(zstd_cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(zstd_cctx, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(zstd_cctx, ZSTD_c_format, ZSTD_f_zstd1_magicless);
    ZSTD_CCtx_setParameter(zstd_cctx, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(zstd_cctx, ZSTD_c_contentSizeFlag, 0);
    c = ZSTD_compress2(zstd_cctx, dst + ZFS_ZSTD_HDR, d_len - ZFS_ZSTD_HDR, src, s_len);
    if (ZSTD_isError(c))
        return s_len;
    return c + ZFS_ZSTD_HDR;
}

/* ------------------------------------------------------------------ zle */

static size_t zfs_zle(const uint8_t *s_start, size_t s_len, uint8_t *d_start, size_t d_len, int n)
{
    const uint8_t *src = s_start;
    uint8_t *dst = d_start;
    const uint8_t *s_end = src + s_len;
    uint8_t *d_end = dst + d_len;

    while (src < s_end && dst < d_end - 1) {
        const uint8_t *first = src;
        uint8_t *len = dst++;
        if (src[0] == 0) {
            const uint8_t *last = src + (256 - n);
            const uint8_t *stop = last < s_end ? last : s_end;
            while (src < stop && src[0] == 0)
                src++;
            *len = (uint8_t)(src - first - 1 + n);
        } else {
            const uint8_t *last = src + n;
            const uint8_t *stop = last < s_end ? last : s_end;
            if (d_end - dst < n)
                break;
            while (src < stop - 1 && (src[0] | src[1]))
                *dst++ = *src++;
            if (src[0])
                *dst++ = *src++;
            *len = (uint8_t)(src - first - 1);
        }
    }
    return src == s_end ? (size_t)(dst - d_start) : s_len;
}

/* ------------------------------------------------------------------ lzjb */

#define JB_MATCH_BITS 6
#define JB_MATCH_MIN 3
#define JB_MATCH_MAX ((1 << JB_MATCH_BITS) + (JB_MATCH_MIN - 1))
#define JB_OFFSET_MASK ((1 << (16 - JB_MATCH_BITS)) - 1)
#define JB_LEMPEL 1024

static size_t zfs_lzjb(const uint8_t *s_start, size_t s_len, uint8_t *d_start, size_t d_len)
{
    /* positions stand for the kernel's pointer values: the buffer starts 1 KiB aligned, so
     * only the position's low bits matter for the 10-bit offsets */
    uint16_t lempel[JB_LEMPEL];
    size_t src = 0;
    uint8_t *dst = d_start;
    uint8_t *copymap = NULL;
    int copymask = 1 << 7;

    memset(lempel, 0, sizeof(lempel));
    while (src < s_len) {
        if ((copymask <<= 1) == (1 << 8)) {
            if (dst >= d_start + d_len - 1 - 2 * 8)
                return s_len;
            copymask = 1;
            copymap = dst;
            *dst++ = 0;
        }
        if (src + JB_MATCH_MAX > s_len) {
            *dst++ = s_start[src++];
            continue;
        }
        {
            const uint8_t *p = s_start + src;
            int hash = (p[0] << 16) + (p[1] << 8) + p[2];
            uint16_t *hp;
            size_t offset, cpy;
            hash += hash >> 9;
            hash += hash >> 5;
            hp = &lempel[hash & (JB_LEMPEL - 1)];
            offset = ((size_t)src - *hp) & JB_OFFSET_MASK;
            *hp = (uint16_t)src;
            cpy = src - offset;
            if (offset <= src && offset != 0 && p[0] == s_start[cpy] && p[1] == s_start[cpy + 1] &&
                p[2] == s_start[cpy + 2]) {
                int mlen;
                *copymap |= (uint8_t)copymask;
                for (mlen = JB_MATCH_MIN; mlen < JB_MATCH_MAX; mlen++)
                    if (p[mlen] != s_start[cpy + mlen])
                        break;
                *dst++ = (uint8_t)(((mlen - JB_MATCH_MIN) << (8 - JB_MATCH_BITS)) | (offset >> 8));
                *dst++ = (uint8_t)offset;
                src += (size_t)mlen;
            } else {
                *dst++ = s_start[src++];
            }
        }
    }
    return (size_t)(dst - d_start);
}

/* ------------------------------------------------------------------ Python glue */

static uint8_t *scratch;
static size_t scratch_size;

static uint8_t *out_buffer(size_t need)
{
    if (need > scratch_size) {
        uint8_t *p = PyMem_Realloc(scratch, need);
        if (p == NULL)
            return NULL;
        scratch = p;
        scratch_size = need;
    }
    return scratch;
}

/* Sizes out, never bytes: -1 means "stored uncompressed". */
#define ALGO_LZ4 1
#define ALGO_ZSTD 2
#define ALGO_ZLE 3
#define ALGO_LZJB 4

static long long run(int algo, const uint8_t *src, size_t s_len, size_t d_len, int level)
{
    uint8_t *dst;
    size_t c;
    if (d_len > s_len)
        d_len = s_len;
    dst = out_buffer(s_len + 64);
    if (dst == NULL)
        return -2;
    switch (algo) {
    case ALGO_LZ4:
        c = zfs_lz4(src, s_len, dst, d_len);
        break;
    case ALGO_ZSTD:
        c = zfs_zstd(src, s_len, dst, d_len, level);
        break;
    case ALGO_ZLE:
        c = zfs_zle(src, s_len, dst, d_len, level);
        break;
    case ALGO_LZJB:
        c = zfs_lzjb(src, s_len, dst, d_len);
        break;
    default:
        return -3;
    }
    if (c >= s_len || c > d_len)
        return -1;
    return (long long)c;
}

static PyObject *compressed_size(PyObject *self, PyObject *args)
{
    int algo, level = 0;
    Py_buffer data;
    Py_ssize_t d_len;
    long long r;
    (void)self;
    if (!PyArg_ParseTuple(args, "iy*n|i", &algo, &data, &d_len, &level))
        return NULL;
    if (d_len < 0) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "d_len must not be negative");
        return NULL;
    }
    /* the GIL stays held: the tables and the output buffer are shared */
    r = run(algo, data.buf, (size_t)data.len, (size_t)d_len, level);
    PyBuffer_Release(&data);
    if (r == -2)
        return PyErr_NoMemory();
    if (r == -3) {
        PyErr_SetString(PyExc_ValueError, "unknown algorithm");
        return NULL;
    }
    if (r < 0)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(r);
}

/* The compressed bytes themselves (for tests against the reference implementations). */
static PyObject *compress(PyObject *self, PyObject *args)
{
    int algo, level = 0;
    Py_buffer data;
    Py_ssize_t d_len;
    long long r;
    PyObject *out;
    (void)self;
    if (!PyArg_ParseTuple(args, "iy*n|i", &algo, &data, &d_len, &level))
        return NULL;
    r = run(algo, data.buf, (size_t)data.len, (size_t)d_len, level);
    PyBuffer_Release(&data);
    if (r == -2)
        return PyErr_NoMemory();
    if (r == -3) {
        PyErr_SetString(PyExc_ValueError, "unknown algorithm");
        return NULL;
    }
    if (r < 0)
        Py_RETURN_NONE;
    out = PyBytes_FromStringAndSize((const char *)scratch, (Py_ssize_t)r);
    return out;
}

static PyObject *zstd_version(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(ZSTD_versionString());
}

static PyMethodDef methods[] = {
    {"compressed_size", compressed_size, METH_VARARGS,
     "compressed_size(algorithm, block, d_len, level=0) -> int | None: ZFS's compressed length, None if "
     "the block would be stored uncompressed."},
    {"compress", compress, METH_VARARGS, "compress(algorithm, block, d_len, level=0) -> bytes | None"},
    {"zstd_version", zstd_version, METH_NOARGS, "the libzstd version linked in"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_zfscomp", "OpenZFS block compressors (lz4, zstd 1.4.5, zle, lzjb).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__zfscomp(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyModule_AddIntConstant(m, "LZ4", ALGO_LZ4);
    PyModule_AddIntConstant(m, "ZSTD", ALGO_ZSTD);
    PyModule_AddIntConstant(m, "ZLE", ALGO_ZLE);
    PyModule_AddIntConstant(m, "LZJB", ALGO_LZJB);
    return m;
}
