#include "crc32c.h"

#include <string.h>

#define POLYNOMIAL 0x82F63B78u

/* Slicing by 8: eight tables, built once on first use. */
static uint32_t tables[8][256];
static int tables_ready;

static void build_tables(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (POLYNOMIAL & (0u - (c & 1)));
        tables[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        for (int t = 1; t < 8; t++) tables[t][n] = (tables[t - 1][n] >> 8) ^ tables[0][tables[t - 1][n] & 0xFF];
    }
    __atomic_store_n(&tables_ready, 1, __ATOMIC_RELEASE);
}

uint32_t folio_crc32c_portable(uint32_t crc, const void *data, size_t count) {
    if (!__atomic_load_n(&tables_ready, __ATOMIC_ACQUIRE)) build_tables();
    const unsigned char *p = data;
    crc = ~crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        word ^= crc;
        crc = tables[7][word & 0xFF] ^ tables[6][(word >> 8) & 0xFF] ^ tables[5][(word >> 16) & 0xFF] ^
              tables[4][(word >> 24) & 0xFF] ^ tables[3][(word >> 32) & 0xFF] ^ tables[2][(word >> 40) & 0xFF] ^
              tables[1][(word >> 48) & 0xFF] ^ tables[0][word >> 56];
        p += 8;
        count -= 8;
    }
    while (count--) crc = (crc >> 8) ^ tables[0][(crc ^ *p++) & 0xFF];
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const void *data, size_t count) {
    const unsigned char *p = data;
    uint64_t c = ~crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        count -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (count--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
}
#endif

#if defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <arm_acle.h>
#include <sys/auxv.h>

#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1ul << 7)
#endif

__attribute__((target("crc")))
static uint32_t crc32c_armv8(uint32_t crc, const void *data, size_t count) {
    const unsigned char *p = data;
    crc = ~crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        crc = __crc32cd(crc, word);
        p += 8;
        count -= 8;
    }
    while (count--) crc = __crc32cb(crc, *p++);
    return ~crc;
}

/* Whether the CPU has the ARMv8 CRC32 instructions: 1 yes, −1 no, 0 not asked yet. */
static int armv8_crc;

static int has_armv8_crc(void) {
    int known = __atomic_load_n(&armv8_crc, __ATOMIC_RELAXED);
    if (known) return known > 0;
    known = (getauxval(AT_HWCAP) & HWCAP_CRC32) ? 1 : -1;
    __atomic_store_n(&armv8_crc, known, __ATOMIC_RELAXED);
    return known > 0;
}
#endif

uint32_t folio_crc32c(uint32_t crc, const void *data, size_t count) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2")) return crc32c_sse42(crc, data, count);
#elif defined(__aarch64__)
    if (has_armv8_crc()) return crc32c_armv8(crc, data, count);
#endif
    return folio_crc32c_portable(crc, data, count);
}
