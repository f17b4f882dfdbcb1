# GPU tests through SDDMMCUDAExt; included by runtests.jl when CUDA.jl can be loaded.
using CUDA

if !CUDA.functional()
    @info "CUDA.jl finds no usable GPU: the GPU tests did not run"
else
    @testset "SDDMM.jl on CuArrays" begin
        A = SparseMatrix(3, 4, CuArray(COO_ROW), CuArray(COO_COL), CuArray(COO_VAL))
        @test sddmm(A, CuArray(X1), CuArray(X2)) isa CuArray
        @test Array(sddmm(A, CuArray(X1), CuArray(X2))) ≈ EXPECTED_COO
        X = CuArray([1.0 2.0; 3.0 4.0; 5.0 6.0; 7.0 8.0])
        @test Array(spmm(A, X)) ≈ ADENSE * Array(X)
        @test Array(spmm(A, CuArray(X1); transpose=true)) ≈ transpose(ADENSE) * X1
        @test_throws ArgumentError sddmm(A, X1, X2)  # host operands for a GPU matrix
        CUDA.synchronize()
        close(A)
    end
end
