#ifndef FOLIO_CRC32C_H
#define FOLIO_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as iSCSI, ext4 and SCTP use it:
 * crc32c(0, "123456789", 9) is 0xE3069283. `crc` is a previous result to continue from
 * (0 to start). Uses the SSE 4.2 or ARMv8 CRC32C instructions where the CPU has them, a table
 * otherwise; all give the same value.
 */
uint32_t folio_crc32c(uint32_t crc, const void *data, size_t count);

/* The table version alone, so tests can hold the two against each other. */
uint32_t folio_crc32c_portable(uint32_t crc, const void *data, size_t count);

#endif
