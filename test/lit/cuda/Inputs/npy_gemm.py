"""A GEMM's .npy inputs and check, in plain Python (no numpy): integer
values in [-2, 2], so that every product and every sum of up to 64 of them
is exact in bf16 and float32 and the kernel's C must equal the reference.

  npy_gemm.py make A.npy B.npy M N K      A [M, K], B [N, K], float32
  npy_gemm.py check C.npy A.npy B.npy     C == A . B^T, exactly
"""
import ast
import struct
import sys


def save(path, rows, cols, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + length].decode())
    assert header["descr"] == "<f4" and not header["fortran_order"], header
    rows, cols = header["shape"]
    values = struct.unpack("<%df" % (rows * cols), data[10 + length:])
    return rows, cols, values


def main():
    if sys.argv[1] == "make":
        m, n, k = (int(x) for x in sys.argv[4:7])
        save(sys.argv[2], m, k, [float((3 * i + 7 * j) % 5 - 2) for i in range(m) for j in range(k)])
        save(sys.argv[3], n, k, [float((5 * i + 3 * j) % 5 - 2) for i in range(n) for j in range(k)])
        return 0
    rows, cols, c = load(sys.argv[2])
    m, k, a = load(sys.argv[3])
    n, _, b = load(sys.argv[4])
    assert (rows, cols) == (m, n), ((rows, cols), (m, n))
    for i in range(m):
        for j in range(n):
            want = sum(a[i * k + t] * b[j * k + t] for t in range(k))
            if c[i * n + j] != want:
                print("C[%d][%d] = %r, want %r" % (i, j, c[i * n + j], want))
                return 1
    print("C matches A . B^T (%d x %d, K = %d)" % (m, n, k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
