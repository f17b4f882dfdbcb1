#!/usr/bin/env python3
"""libsddmm from Python with nothing but the standard library's ctypes.

  python3 ctypes_sddmm.py [--library PATH]           CPU backend, host memory from the array module,
                                                     checked against plain-Python references
  python3 ctypes_sddmm.py --torch [--library PATH]   CUDA backend on PyTorch tensors' device
                                                     pointers and torch's current stream, checked
                                                     against torch's own results

The library is --library, else $SDDMM_LIBRARY, else what ctypes.util.find_library("sddmm") finds.
Exit status: 0 all results match, 1 a mismatch or a library error, 2 --torch without PyTorch+CUDA.
"""
import argparse
import array
import ctypes
import ctypes.util
import os
import random
import sys

# The header's enum values (pinned by the ABI) and the dense descriptor, field for field.
SUCCESS, INDEX_OUT_OF_RANGE = 0, 3
FLOAT32, FLOAT64 = 0, 1
INT32, INT64 = 0, 1
ROW_MAJOR, COL_MAJOR = 0, 1
CPU, CUDA = 0, 1
NON_TRANSPOSE, TRANSPOSE = 0, 1


class Dense(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("rows", ctypes.c_int64), ("cols", ctypes.c_int64),
                ("ld", ctypes.c_int64), ("layout", ctypes.c_int), ("dtype", ctypes.c_int)]


class SddmmError(Exception):
    def __init__(self, status, name, message):
        super().__init__(f"{name}: {message}")
        self.status, self.message = status, message


def load(path):
    lib = ctypes.CDLL(path)
    status, handle, ptr = ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p
    create_args = [ctypes.POINTER(handle), ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ptr, ptr, ctypes.c_int,
                   ptr, ctypes.c_int, ctypes.c_int, ctypes.c_int32, ctypes.c_uint32, ptr]
    signatures = {
        "sddmm_version": (ctypes.c_int32, []),
        "sddmm_status_string": (ctypes.c_char_p, [status]),
        "sddmm_last_error": (ctypes.c_char_p, []),
        "sddmm_create_coo": (status, create_args),
        "sddmm_create_csr": (status, create_args),
        "sddmm_destroy": (status, [handle]),
        "sddmm_get_shape": (status, [handle] + [ctypes.POINTER(ctypes.c_int64)] * 3),
        "sddmm_execute": (status, [handle, ctypes.POINTER(Dense), ctypes.POINTER(Dense), ptr, ctypes.c_int, ptr]),
        "spmm_execute": (status, [handle, ctypes.POINTER(Dense), ctypes.POINTER(Dense), ctypes.c_int, ptr]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


def check(lib, status):
    """Raises for a failed call; the message is the calling thread's, read right away."""
    if status != SUCCESS:
        raise SddmmError(status, lib.sddmm_status_string(status).decode(), lib.sddmm_last_error().decode())


class Matrix:
    """Owns a handle: create from COO arrays (pointers), destroy on close."""

    def __init__(self, lib, rows, cols, nnz, row_ptr, col_ptr, index_type, values_ptr, dtype,
                 backend=CPU, device=0, stream=None):
        self.lib, self.handle = lib, ctypes.c_void_p()
        check(lib, lib.sddmm_create_coo(ctypes.byref(self.handle), rows, cols, nnz, row_ptr, col_ptr, index_type,
                                        values_ptr, dtype, backend, device, 0, stream))

    def close(self):
        self.lib.sddmm_destroy(self.handle)
        self.handle = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def address(buffer):
    """The address of an array.array's elements (valid while the array lives and is not resized)."""
    return buffer.buffer_info()[0]


def close_enough(got, want, tolerance):
    return len(got) == len(want) and all(abs(g - w) <= tolerance * max(1.0, abs(w)) for g, w in zip(got, want))


def run_cpu(lib):
    rng = random.Random(7)
    rows, cols, k, n, nnz = 13, 11, 4, 3, 40
    failures = 0
    for typecode, dtype, tolerance in (("d", FLOAT64, 1e-12), ("f", FLOAT32, 1e-5)):
        row = array.array("q", (rng.randrange(rows) for _ in range(nnz)))
        col = array.array("i", (rng.randrange(cols) for _ in range(nnz)))
        col64 = array.array("q", col)
        val = array.array(typecode, (rng.uniform(-1, 1) for _ in range(nnz)))
        x1 = array.array(typecode, (rng.uniform(-1, 1) for _ in range(rows * k)))  # rows x k, row-major
        x2 = array.array(typecode, (rng.uniform(-1, 1) for _ in range(cols * k)))  # k x cols, column-major
        x = array.array(typecode, (rng.uniform(-1, 1) for _ in range(cols * n)))   # cols x n, row-major
        xt = array.array(typecode, (rng.uniform(-1, 1) for _ in range(rows * n)))  # rows x n, row-major

        want_sddmm = [val[p] * sum(x1[row[p] * k + q] * x2[col[p] * k + q] for q in range(k)) for p in range(nnz)]
        want_spmm, want_spmm_t = [0.0] * (rows * n), [0.0] * (cols * n)
        for p in range(nnz):
            for j in range(n):
                want_spmm[row[p] * n + j] += val[p] * x[col[p] * n + j]
                want_spmm_t[col[p] * n + j] += val[p] * xt[row[p] * n + j]

        out = array.array(typecode, [float("nan")] * nnz)
        y = array.array(typecode, [float("nan")] * (rows * n))
        yt = array.array(typecode, [float("nan")] * (cols * n))
        def d(buf, r, c, ld, layout, dtype=dtype):
            return Dense(address(buf), r, c, ld, layout, dtype)

        with Matrix(lib, rows, cols, nnz, address(row), address(col64), INT64, address(val), dtype) as a:
            check(lib, lib.sddmm_execute(a.handle, d(x1, rows, k, k, ROW_MAJOR), d(x2, k, cols, k, COL_MAJOR),
                                         address(out), dtype, None))
            check(lib, lib.spmm_execute(a.handle, d(x, cols, n, n, ROW_MAJOR), d(y, rows, n, n, ROW_MAJOR),
                                        NON_TRANSPOSE, None))
            check(lib, lib.spmm_execute(a.handle, d(xt, rows, n, n, ROW_MAJOR), d(yt, cols, n, n, ROW_MAJOR),
                                        TRANSPOSE, None))
        for what, got, want in (("sddmm", out, want_sddmm), ("spmm", y, want_spmm), ("spmm^T", yt, want_spmm_t)):
            ok = close_enough(list(got), want, tolerance * k)
            failures += not ok
            print(f"{what:7} {'float64' if dtype == FLOAT64 else 'float32'}: {'ok' if ok else 'MISMATCH'}")

    # A column index out of range: the library refuses it and names the argument.
    # (Both arrays are named: a temporary's memory could be freed before the call reads it.)
    good_row, bad_col = array.array("i", [0, 1]), array.array("i", [0, cols])
    try:
        Matrix(lib, rows, cols, 2, address(good_row), address(bad_col), INT32, None, FLOAT32).close()
        print("error   : MISSING (an out-of-range column was accepted)")
        failures += 1
    except SddmmError as error:
        ok = error.status == INDEX_OUT_OF_RANGE and "col_idx" in error.message
        failures += not ok
        print(f"error   : {'ok' if ok else 'WRONG'}: {error}")
    return failures


def run_torch(lib):
    try:
        import torch
    except ImportError:
        print("--torch needs PyTorch", file=sys.stderr)
        return None
    if not torch.cuda.is_available():
        print("--torch needs PyTorch with a CUDA device", file=sys.stderr)
        return None
    torch.manual_seed(7)
    device = torch.device("cuda", torch.cuda.current_device())
    stream = torch.cuda.current_stream().cuda_stream
    rows, cols, k, n, nnz = 1000, 700, 32, 16, 20000
    failures = 0
    for dtype, code, tolerance in ((torch.float64, FLOAT64, 1e-12), (torch.float32, FLOAT32, 1e-5)):
        row = torch.randint(0, rows, (nnz,), device=device, dtype=torch.int32)
        col = torch.randint(0, cols, (nnz,), device=device, dtype=torch.int32)
        val = torch.rand(nnz, device=device, dtype=dtype) - 0.5
        x1 = torch.rand(rows, k, device=device, dtype=dtype)   # row-major
        x2t = torch.rand(cols, k, device=device, dtype=dtype)  # X2 = x2t.T is k x cols, column-major
        x = torch.rand(cols, n, device=device, dtype=dtype)
        out = torch.full((nnz,), float("nan"), device=device, dtype=dtype)
        y = torch.full((rows, n), float("nan"), device=device, dtype=dtype)
        with Matrix(lib, rows, cols, nnz, row.data_ptr(), col.data_ptr(), INT32, val.data_ptr(), code,
                    backend=CUDA, device=device.index, stream=stream) as a:
            check(lib, lib.sddmm_execute(a.handle, Dense(x1.data_ptr(), rows, k, k, ROW_MAJOR, code),
                                         Dense(x2t.data_ptr(), k, cols, k, COL_MAJOR, code), out.data_ptr(), code,
                                         stream))
            check(lib, lib.spmm_execute(a.handle, Dense(x.data_ptr(), cols, n, n, ROW_MAJOR, code),
                                        Dense(y.data_ptr(), rows, n, n, ROW_MAJOR, code), NON_TRANSPOSE, stream))
            torch.cuda.current_stream().synchronize()  # before the handle is destroyed
        want_sddmm = val * (x1[row.long()] * x2t[col.long()]).sum(dim=1)
        want_spmm = torch.zeros(rows, n, device=device, dtype=dtype)
        want_spmm.index_add_(0, row.long(), val[:, None] * x[col.long()])
        for what, got, want in (("sddmm", out, want_sddmm), ("spmm", y, want_spmm)):
            ok = torch.allclose(got, want, rtol=tolerance * k, atol=tolerance * k)
            failures += not ok
            print(f"{what:7} {str(dtype):13} on {device}: {'ok' if ok else 'MISMATCH'}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", default=os.environ.get("SDDMM_LIBRARY") or ctypes.util.find_library("sddmm"))
    parser.add_argument("--torch", action="store_true", help="CUDA backend on PyTorch tensors")
    args = parser.parse_args()
    if not args.library:
        parser.error("libsddmm not found: give --library or set SDDMM_LIBRARY")
    lib = load(args.library)
    print(f"libsddmm {lib.sddmm_version()} from {args.library}")
    failures = run_torch(lib) if args.torch else run_cpu(lib)
    if failures is None:
        return 2
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
