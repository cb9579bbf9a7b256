//! Giving memory back to the system after large requests.
//!
//! glibc's allocator keeps what a request freed for later requests: after a load of large
//! requests (encodings of big puzzles, listings, counts left early) the server's resident
//! memory stayed at its peak (225 MB) long after the load ended. Every few seconds, when
//! requests have been answered since the last time, the server asks the allocator to return
//! the free pages of all its arenas (`malloc_trim`), and large blocks are mapped from the
//! system and unmapped when freed ([`map_large_blocks`]). Elsewhere than Linux with glibc
//! this does nothing.

/// Returns the allocator's free memory to the system, where the allocator allows it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn give_back() {
    // SAFETY: malloc_trim only walks glibc's own arenas under their locks and takes no
    // pointer; it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Returns the allocator's free memory to the system, where the allocator allows it.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_back() {}

/// Blocks of this size and more are mapped from the system and unmapped when freed.
pub const MAPPED_FROM: usize = 256 << 10;

/// Makes the allocator map every block of [`MAPPED_FROM`] bytes or more from the system and
/// return it when freed. glibc does that from 128 KiB, but raises the bar to the size of each
/// mapped block freed (up to 32 MiB), after which a request's large buffers (encodings,
/// listings, a search's stacks) come from the arenas and stay there, fragmented, after the
/// request: under the hostile load of `benches/serve_hostile.rs` (20 s) the server held 44
/// MB fifteen seconds after the load (4 MB at its start), with the bar fixed 11 MB, and its
/// peak went from 80 to 41 MB; `check` requests per second under `benches/serve_load.rs`
/// were the same within the noise.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn map_large_blocks() {
    // SAFETY: mallopt sets a number in glibc's allocator under its lock; it takes no pointer.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAPPED_FROM as libc::c_int);
    }
}

/// Makes the allocator map large blocks from the system, where the allocator allows it.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn map_large_blocks() {}
