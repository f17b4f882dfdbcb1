"""
    SDDMMError(status, name, message)

A failed libsddmm call. `status` is the library's `sddmm_status_t` value (compare with the
`SDDMM.SDDMM_STATUS_*` constants), `name` its name (`"SDDMM_STATUS_INDEX_OUT_OF_RANGE"`), and
`message` the library's text naming the offending argument.
"""
struct SDDMMError <: Exception
    status::sddmm_status_t
    name::String
    message::String
end

Base.showerror(io::IO, e::SDDMMError) = print(io, "SDDMMError: ", e.name, ": ", e.message)

"""
    library_version() -> VersionNumber

The version of the libsddmm actually loaded (its `sddmm_version()`).
"""
function library_version()
    number = sddmm_version()
    return VersionNumber(number ÷ 10000, (number ÷ 100) % 100, number % 100)
end

# Throws for a failed status. Call it right after the failed call, on the same task: the library's
# message belongs to the calling OS thread and lasts until that thread's next call into the library.
# Nothing here yields, and finalizers (which may call sddmm_destroy on this thread) are held off
# while the message is copied.
function check(status::sddmm_status_t)
    status == SDDMM_STATUS_SUCCESS && return nothing
    GC.enable_finalizers(false)
    message = try
        unsafe_string(sddmm_last_error())
    finally
        GC.enable_finalizers(true)
    end
    throw(SDDMMError(status, unsafe_string(sddmm_status_string(status)), message))
end
