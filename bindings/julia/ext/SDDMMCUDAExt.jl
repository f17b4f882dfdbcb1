"""
    SDDMMCUDAExt

Loaded with CUDA.jl: `CuArray`s run on libsddmm's CUDA backend. A `SparseMatrix` built from
`CuVector`s lives on their device; `sddmm!`/`spmm!` on `CuArray`s (or their transposes) are queued
on the task's CUDA.jl stream and return before the GPU is done, like any CUDA.jl operation.
"""
module SDDMMCUDAExt

using CUDA: CUDA, CuArray
using SDDMM: SDDMM, SDDMM_BACKEND_CUDA

SDDMM._location(x::CuArray) = (SDDMM_BACKEND_CUDA, Int32(CUDA.deviceid(CUDA.device(x))))

# A device address travels through the C ABI as void*, like a cudaStream_t.
SDDMM._pointer(x::CuArray) = reinterpret(Ptr{Cvoid}, pointer(x))

SDDMM._stream(::CuArray) = Ptr{Cvoid}(CUDA.stream().handle)

end # module SDDMMCUDAExt
