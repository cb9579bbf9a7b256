//! Giving memory back to the system after large requests.
//!
//! glibc's allocator keeps what a request freed for later requests: after a load of large
//! requests (encodings of big puzzles, listings, counts left early) the server's resident
//! memory stayed at its peak (225 MB) long after the load ended. Every few seconds, when
//! requests have been answered since the last time, the server asks the allocator to return
//! the free pages of all its arenas (`malloc_trim`). Elsewhere than Linux with glibc this
//! does nothing.

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
