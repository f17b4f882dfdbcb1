//! Statuses and errors: every failure carries the library's status and its message.

use core::ffi::CStr;
use std::fmt;

use crate::sys;

/// A status code (`sddmm_status_t`), kept as the raw integer so that a status this crate does not
/// know yet (from a newer library) is still representable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Status(pub sys::sddmm_status_t);

impl Status {
    pub const SUCCESS: Status = Status(sys::SDDMM_STATUS_SUCCESS);
    pub const NULL_POINTER: Status = Status(sys::SDDMM_STATUS_NULL_POINTER);
    pub const INVALID_ARGUMENT: Status = Status(sys::SDDMM_STATUS_INVALID_ARGUMENT);
    pub const INDEX_OUT_OF_RANGE: Status = Status(sys::SDDMM_STATUS_INDEX_OUT_OF_RANGE);
    pub const SHAPE_MISMATCH: Status = Status(sys::SDDMM_STATUS_SHAPE_MISMATCH);
    pub const SIZE_OVERFLOW: Status = Status(sys::SDDMM_STATUS_SIZE_OVERFLOW);
    pub const NOT_SUPPORTED: Status = Status(sys::SDDMM_STATUS_NOT_SUPPORTED);
    pub const OUT_OF_MEMORY: Status = Status(sys::SDDMM_STATUS_OUT_OF_MEMORY);
    pub const NO_DEVICE: Status = Status(sys::SDDMM_STATUS_NO_DEVICE);
    pub const INVALID_POINTER: Status = Status(sys::SDDMM_STATUS_INVALID_POINTER);
    pub const CUDA_ERROR: Status = Status(sys::SDDMM_STATUS_CUDA_ERROR);
    pub const INTERNAL_ERROR: Status = Status(sys::SDDMM_STATUS_INTERNAL_ERROR);

    /// The library's name of this status, e.g. `"SDDMM_STATUS_INDEX_OUT_OF_RANGE"`
    /// (`"unknown status"` for a value it does not know).
    pub fn name(self) -> &'static str {
        // SAFETY: sddmm_status_string accepts any value and returns a static, never-NULL,
        // NUL-terminated string (header), so the 'static borrow is sound.
        let name = unsafe { CStr::from_ptr(sys::sddmm_status_string(self.0)) };
        name.to_str().unwrap_or("unknown status")
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed call: the status and the message naming the offending argument. The message is the
/// library's `sddmm_last_error()` text, or this crate's own when it refused a call before making it
/// (a slice too short for the shape it claims, a host slice given to a CUDA handle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    status: Status,
    message: String,
}

impl Error {
    pub fn status(&self) -> Status {
        self.status
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error { status, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = core::result::Result<T, Error>;

/// Turns a status into a Result. Must run on the thread that made the call, right after it: the
/// library's message is per thread and lasts only until that thread's next call.
pub(crate) fn check(status: sys::sddmm_status_t) -> Result<()> {
    if status == sys::SDDMM_STATUS_SUCCESS {
        return Ok(());
    }
    // SAFETY: sddmm_last_error returns a never-NULL, NUL-terminated string that stays valid until
    // this thread's next call into the library; it is copied before any such call.
    let message = unsafe { CStr::from_ptr(sys::sddmm_last_error()) };
    Err(Error::new(Status(status), message.to_string_lossy().into_owned()))
}
