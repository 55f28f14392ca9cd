import CMalloc

/// Gives every block of 1 MiB or more (canvases, page images, frame-sized scratch) pages of its own,
/// which go back to the system when it is freed.
///
/// glibc raises this threshold to the size of each large block freed (up to 32 MiB) and from then
/// on serves such blocks from its heap, which keeps their pages when they are freed: over a session
/// of pinches, turns and resizes the resident set grows by megabytes before it levels off. A fixed
/// threshold keeps it flat; no frame allocates a block this large, so none pays for mapping one.
func mapLargeBlocksOnTheirOwn() {
    _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
}
