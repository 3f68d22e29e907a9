/* simdist.runtime.ops._fma: float32 products accumulated in order with fused multiply-adds, compiled.

   The compiled form of two pure-Python kernels, which stay the reference and the fallback (fma_native.py
   loads this module; tests/ops/test_fma_native.py checks both give identical bits):

   - ordered(x, y, out, batch, m, k, n): contraction_order.ordered_matmul's float32 fused order, oneDNN's plain
     MatMul (onednn_matmul.in_order), its Conv2D under conv.py's _ORDERED_BUDGET, einsum's products:
     out[b, i, l] = fma(x[b, i, k-1], y[b, k-1, l], ... fma(x[b, i, 0], y[b, 0, l], +0)).
   - lanes16(x, bt, out, m, k, n): onednn_matmul.matmul_transposed_b, oneDNN's transpose_b kernel of 2..15 rows:
     the dot product of rows x[i, :] and bt[l, :] over k in 16 lanes (element j in lane j mod 16), each lane
     accumulated with fused multiply-adds from +0, then lane t + lane t + 8, + 4, + 2, + 1 in float32 adds.

   fmaf is IEEE 754's fusedMultiplyAdd in binary32: a*b + c rounded once, to nearest even, under the default
   floating-point environment (no flush-to-zero, no denormals-are-zero: the models' "not flushed"). Each output
   is computed on its own, so the order of the loops (and any vectorization the compiler does) cannot change a
   bit: only the per-element order over k matters, and it is the one above. Must not be compiled with
   -ffast-math (-ffp-contract=fast is harmless: there is nothing left to contract). Arguments are C-contiguous
   float32 buffers (the Python side makes them so); out is written, not read.

   NaN: where an output is NaN both kernels give NaN, but its sign and payload are not part of the contract:
   which NaN operand fmaf returns depends on the instruction form the compiler picks, and the pure kernels'
   on NumPy's loops (one product's NaN sign differs between shapes there); neither models TF's (oneDNN's
   vfmadd forms). Every other output is bit for bit the pure kernels'. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef SIMDIST_FMA_SHA256
#define SIMDIST_FMA_SHA256 ""
#endif

/* The x86-64 builds: one clone with hardware FMA (and wider vectors), one for any x86-64 (glibc's fmaf, still
   correctly rounded), picked at load time by the CPU. Identical results either way. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(SIMDIST_FMA_NO_CLONES)
#define KERNEL __attribute__((target_clones("avx512f", "fma", "default")))
#else
#define KERNEL
#endif

KERNEL static void ordered_kernel(const float *x, const float *y, float *out, Py_ssize_t batch, Py_ssize_t m,
                                  Py_ssize_t k, Py_ssize_t n) {
    for (Py_ssize_t b = 0; b < batch; b++) {
        const float *xb = x + b * m * k, *yb = y + b * k * n;
        float *ob = out + b * m * n;
        for (Py_ssize_t i = 0; i < m; i++) {
            float *acc = ob + i * n;
            for (Py_ssize_t l = 0; l < n; l++)
                acc[l] = 0.0f;
            for (Py_ssize_t j = 0; j < k; j++) {
                const float a = xb[i * k + j];
                const float *row = yb + j * n;
                for (Py_ssize_t l = 0; l < n; l++)
                    acc[l] = fmaf(a, row[l], acc[l]);
            }
        }
    }
}

KERNEL static void lanes16_kernel(const float *x, const float *bt, float *out, Py_ssize_t m, Py_ssize_t k,
                                  Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < m; i++) {
        const float *xr = x + i * k;
        for (Py_ssize_t l = 0; l < n; l++) {
            const float *br = bt + l * k;
            float acc[16];
            for (int t = 0; t < 16; t++)
                acc[t] = 0.0f;
            for (Py_ssize_t j = 0; j < k; j++)
                acc[j & 15] = fmaf(xr[j], br[j], acc[j & 15]);
            for (int width = 8; width >= 1; width /= 2)
                for (int t = 0; t < width; t++)
                    acc[t] = acc[t] + acc[t + width];
            out[i * n + l] = acc[0];
        }
    }
}

/* a float32 C-contiguous buffer of at least `need` elements */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t need, const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    if (view->itemsize != 4 || view->format == NULL || strcmp(view->format, "f") != 0) {
        PyErr_Format(PyExc_TypeError, "_fma: %s must be a float32 buffer (format %s)", what,
                     view->format ? view->format : "?");
        PyBuffer_Release(view);
        return -1;
    }
    if (view->len / 4 < need) {
        PyErr_Format(PyExc_ValueError, "_fma: %s holds %zd elements, %zd needed", what, view->len / 4, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int nonnegative(Py_ssize_t a, Py_ssize_t b, Py_ssize_t c, Py_ssize_t d) {
    if (a < 0 || b < 0 || c < 0 || d < 0) {
        PyErr_SetString(PyExc_ValueError, "_fma: negative dimension");
        return 0;
    }
    return 1;
}

static PyObject *py_ordered(PyObject *self, PyObject *args) {
    PyObject *xo, *yo, *oo;
    Py_ssize_t batch, m, k, n;
    Py_buffer xv, yv, ov;
    if (!PyArg_ParseTuple(args, "OOOnnnn", &xo, &yo, &oo, &batch, &m, &k, &n) || !nonnegative(batch, m, k, n))
        return NULL;
    if (get_buffer(xo, &xv, 0, batch * m * k, "x") < 0)
        return NULL;
    if (get_buffer(yo, &yv, 0, batch * k * n, "y") < 0) {
        PyBuffer_Release(&xv);
        return NULL;
    }
    if (get_buffer(oo, &ov, 1, batch * m * n, "out") < 0) {
        PyBuffer_Release(&xv);
        PyBuffer_Release(&yv);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    ordered_kernel((const float *)xv.buf, (const float *)yv.buf, (float *)ov.buf, batch, m, k, n);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&xv);
    PyBuffer_Release(&yv);
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

static PyObject *py_lanes16(PyObject *self, PyObject *args) {
    PyObject *xo, *bo, *oo;
    Py_ssize_t m, k, n;
    Py_buffer xv, bv, ov;
    if (!PyArg_ParseTuple(args, "OOOnnn", &xo, &bo, &oo, &m, &k, &n) || !nonnegative(1, m, k, n))
        return NULL;
    if (get_buffer(xo, &xv, 0, m * k, "x") < 0)
        return NULL;
    if (get_buffer(bo, &bv, 0, n * k, "bt") < 0) {
        PyBuffer_Release(&xv);
        return NULL;
    }
    if (get_buffer(oo, &ov, 1, m * n, "out") < 0) {
        PyBuffer_Release(&xv);
        PyBuffer_Release(&bv);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    lanes16_kernel((const float *)xv.buf, (const float *)bv.buf, (float *)ov.buf, m, k, n);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&xv);
    PyBuffer_Release(&bv);
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

/* map1/map2(fn, kind, args..., out, n): out[i] = fn(a[i]) or fn(a[i], b[i]) for a C function pointer `fn` of
   float32 (kind 'f') or float64 (kind 'd') arguments and result: libm.scalar_map's loop (the C library's scalar
   functions on the elements Eigen leaves to them), which ctypes runs one Python call per element. The same
   function on the same arguments: the same bits. */
typedef float (*f1_t)(float);
typedef double (*d1_t)(double);
typedef float (*f2_t)(float, float);
typedef double (*d2_t)(double, double);

static PyObject *py_map(PyObject *self, PyObject *args) {
    unsigned long long addr;
    int kind, arity;
    PyObject *ao, *bo, *oo;
    Py_ssize_t n;
    Py_buffer av, bv, ov;
    if (!PyArg_ParseTuple(args, "KCiOOOn", &addr, &kind, &arity, &ao, &bo, &oo, &n))
        return NULL;
    if ((kind != 'f' && kind != 'd') || (arity != 1 && arity != 2) || n < 0 || addr == 0) {
        PyErr_SetString(PyExc_ValueError, "_fma.map: kind 'f' or 'd', arity 1 or 2, n >= 0, a function");
        return NULL;
    }
    const Py_ssize_t item = kind == 'f' ? 4 : 8;
    const char *fmt = kind == 'f' ? "f" : "d";
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT;
    if (PyObject_GetBuffer(ao, &av, flags) < 0)
        return NULL;
    if (PyObject_GetBuffer(bo, &bv, flags) < 0) {
        PyBuffer_Release(&av);
        return NULL;
    }
    if (PyObject_GetBuffer(oo, &ov, flags | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&av);
        PyBuffer_Release(&bv);
        return NULL;
    }
    int ok = av.itemsize == item && ov.itemsize == item && av.format && ov.format && strcmp(av.format, fmt) == 0 &&
             strcmp(ov.format, fmt) == 0 && av.len >= n * item && ov.len >= n * item;
    if (arity == 2)
        ok = ok && bv.itemsize == item && bv.format && strcmp(bv.format, fmt) == 0 && bv.len >= n * item;
    if (!ok) {
        PyBuffer_Release(&av);
        PyBuffer_Release(&bv);
        PyBuffer_Release(&ov);
        PyErr_Format(PyExc_TypeError, "_fma.map: arguments must be %zd contiguous %s values", n,
                     kind == 'f' ? "float32" : "float64");
        return NULL;
    }
    void *fn = (void *)(uintptr_t)addr;
    Py_BEGIN_ALLOW_THREADS
    if (kind == 'f') {
        const float *a = av.buf, *b = bv.buf;
        float *o = ov.buf;
        if (arity == 1)
            for (Py_ssize_t i = 0; i < n; i++)
                o[i] = ((f1_t)fn)(a[i]);
        else
            for (Py_ssize_t i = 0; i < n; i++)
                o[i] = ((f2_t)fn)(a[i], b[i]);
    } else {
        const double *a = av.buf, *b = bv.buf;
        double *o = ov.buf;
        if (arity == 1)
            for (Py_ssize_t i = 0; i < n; i++)
                o[i] = ((d1_t)fn)(a[i]);
        else
            for (Py_ssize_t i = 0; i < n; i++)
                o[i] = ((d2_t)fn)(a[i], b[i]);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&av);
    PyBuffer_Release(&bv);
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"ordered", py_ordered, METH_VARARGS,
     "ordered(x, y, out, batch, m, k, n): out[b] = x[b] @ y[b] over k in order with float32 fused multiply-adds"},
    {"lanes16", py_lanes16, METH_VARARGS,
     "lanes16(x, bt, out, m, k, n): out = x @ bt.T in 16 lanes of fused multiply-adds, lanes added by halves"},
    {"map", py_map, METH_VARARGS,
     "map(fn_address, kind 'f'|'d', arity, a, b, out, n): out[i] = fn(a[i][, b[i]]) for a C function pointer"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fma", NULL, -1, methods};

PyMODINIT_FUNC PyInit__fma(void) {
    PyObject *mod = PyModule_Create(&module);
    if (mod == NULL)
        return NULL;
    /* the SHA-256 of this file when it was compiled (setup.py): fma_native.py sets aside a build older than
       the source beside it */
    if (PyModule_AddStringConstant(mod, "SOURCE_SHA256", SIMDIST_FMA_SHA256) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
