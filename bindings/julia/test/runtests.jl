# Tests of the Julia bindings against the CPU backend, for users who have Julia:
#   SDDMM_LIBRARY=/path/to/libsddmm.so julia --project=bindings/julia -e 'using Pkg; Pkg.test()'
# The GPU part runs when CUDA.jl is in the environment and functional.
#
# Fixture (as in the Rust tests): A is 3 × 4 with five entries given in scrambled order,
#   A = [0 2 0 -1; 3 0 0 0; 0 0 0.5 4]
# and the expected numbers are worked out by hand in the comments.

using LinearAlgebra
using Random
using SDDMM
using SparseArrays
using Test

const COO_ROW = [3, 1, 2, 3, 1]
const COO_COL = [4, 2, 1, 3, 4]
const COO_VAL = [4.0, 2.0, 3.0, 0.5, -1.0]
const ADENSE = [0 2 0 -1; 3 0 0 0; 0 0 0.5 4]
const X1 = [1.0 2.0; 3.0 4.0; 5.0 6.0]
const X2 = [1.0 0.0 2.0 -1.0; 0.0 1.0 1.0 3.0]
# dot(X1[r, :], X2[:, c]) per entry: (3,4) 13, (1,2) 2, (2,1) 3, (3,3) 16, (1,4) 5; times COO_VAL:
const EXPECTED_COO = [52.0, 4.0, 9.0, 8.0, -5.0]

@testset "SDDMM.jl on the CPU backend" begin
    @testset "version" begin
        @test library_version() == pkgversion(SDDMM)
    end

    @testset "COO: shape and sddmm in the caller's entry order" begin
        A = SparseMatrix(3, 4, COO_ROW, COO_COL, COO_VAL)
        @test size(A) == (3, 4)
        @test nnz(A) == 5
        @test sddmm(A, X1, X2) == EXPECTED_COO
        # Row-major X1 (a transpose view) and a strided column-major X2 give the same numbers.
        @test sddmm(A, transpose(collect(transpose(X1))), X2) == EXPECTED_COO
        padded = fill(NaN, 3, 4)
        padded[1:2, :] .= X2
        @test sddmm(A, X1, view(padded, 1:2, :)) == EXPECTED_COO
    end

    @testset "CSR, Float32, Int32 indices" begin
        A = SparseMatrix(3, 4, Int32[1, 3, 4, 6], Int32[2, 4, 1, 3, 4], Float32[2, -1, 3, 0.5, 4]; format=:csr)
        # CSR order: (1,2) 2*2, (1,4) -1*5, (2,1) 3*3, (3,3) 0.5*16, (3,4) 4*13.
        @test sddmm(A, Float32.(X1), Float32.(X2)) == Float32[4, -5, 9, 8, 52]
    end

    @testset "no values means ones" begin
        A = SparseMatrix{Float64}(3, 4, COO_ROW, COO_COL)
        @test sddmm(A, X1, X2) == [13.0, 2.0, 3.0, 16.0, 5.0]
    end

    @testset "spmm and transposed spmm" begin
        A = SparseMatrix(3, 4, COO_ROW, COO_COL, COO_VAL)
        X = [1.0 2.0; 3.0 4.0; 5.0 6.0; 7.0 8.0]
        @test spmm(A, X) == [-1.0 0.0; 3.0 6.0; 30.5 35.0]
        @test A * X == ADENSE * X
        # transpose(A) * X1: column c of A times X1's rows.
        @test spmm(A, X1; transpose=true) == [9.0 12.0; 2.0 4.0; 2.5 3.0; 19.0 22.0]
        Y = fill(NaN, 2, 3)  # row-major output through a transpose view
        spmm!(transpose(Y), A, X)
        @test transpose(Y) == ADENSE * X
    end

    @testset "spmm sums duplicates and zeroes empty rows" begin
        A = SparseMatrix(3, 2, [1, 3, 1], [2, 1, 2], Float32[2, 5, 1])
        Y = fill(NaN32, 3, 1)
        spmm!(Y, A, reshape(Float32[1, 10], 2, 1))
        @test vec(Y) == Float32[30, 0, 5]
    end

    @testset "SparseMatrixCSC: sddmm lines up with nonzeros" begin
        S = sparse(COO_ROW, COO_COL, COO_VAL, 3, 4)
        A = SparseMatrix(S)
        rows = rowvals(S)
        cols = [c for c in 1:size(S, 2) for _ in nzrange(S, c)]
        expected = [nonzeros(S)[p] * dot(X1[rows[p], :], X2[:, cols[p]]) for p in 1:nnz(S)]
        @test sddmm(A, X1, X2) == expected
    end

    @testset "random against dense references" begin
        rng = MersenneTwister(42)
        rows, cols, k, n, count = 37, 29, 5, 3, 200
        Ir, Jr, Vr = rand(rng, 1:rows, count), rand(rng, 1:cols, count), rand(rng, count) .- 0.5
        A = SparseMatrix(rows, cols, Ir, Jr, Vr)
        P, Q, X = rand(rng, rows, k), rand(rng, k, cols), rand(rng, cols, n)
        expected = [Vr[p] * dot(P[Ir[p], :], Q[:, Jr[p]]) for p in 1:count]
        @test sddmm(A, P, Q) ≈ expected rtol=64eps()
        @test spmm(A, X) ≈ Matrix(sparse(Ir, Jr, Vr, rows, cols)) * X rtol=64eps()
    end

    @testset "errors carry the library's message" begin
        err = try
            SparseMatrix(3, 4, [1, 2], [2, 5], [1.0, 1.0])  # column 5 of 4
        catch e
            e
        end
        @test err isa SDDMMError
        @test err.status == SDDMM.SDDMM_STATUS_INDEX_OUT_OF_RANGE
        @test err.name == "SDDMM_STATUS_INDEX_OUT_OF_RANGE"
        @test occursin("col_idx", err.message)

        A = SparseMatrix(3, 4, COO_ROW, COO_COL, COO_VAL)
        Y = fill(-7.0, 3, 2)
        @test_throws SDDMMError spmm!(Y, A, ones(3, 2))  # X needs 4 rows
        @test all(==(-7.0), Y)  # a failed call leaves its output alone
        @test_throws DimensionMismatch sddmm!(zeros(4), A, X1, X2)

        close(A)
        close(A)
        @test_throws SDDMMError sddmm(A, X1, X2)
    end
end

if Base.find_package("CUDA") === nothing
    @info "CUDA.jl is not in this environment: the GPU tests did not run"
else
    include("cuda.jl")
end
