/* simdist.runtime.ops._fma_rows: segmented in-order float32 sums of products, compiled (sixtieth session, conv60).

   The compiled form of a pure-Python kernel, which stays the reference and the fallback (fma_native.py loads
   this module; tests/ops/test_fma_native.py checks both give identical bits):

   - segments(x, y, acc, ends, p, k, n): oneDNN's explicit-broadcast backward-weights kernel
     (onednn_backprop_filter.py): for each segment [s, e) of the p rows in order (ends[i] the end of segment i),
     the partial t[j, l] = fma(x[e-1, j], y[e-1, l], ... fma(x[s, j], y[s, l], +0)) and then acc[j, l] = acc[j, l]
     + t[j, l] (a float32 add, rounded). x [p, k], y [p, n], acc [k, n] read and written.

   fmaf is IEEE 754's fusedMultiplyAdd in binary32 under the default floating-point environment; each output is
   computed on its own, so the loops' order and any vectorization cannot change a bit. The add is an add: there is
   no product left for -ffp-contract to fuse. Must not be compiled with -ffast-math. NaN signs and payloads are not
   part of the contract (as _fma.c's). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef SIMDIST_FMA_SHA256
#define SIMDIST_FMA_SHA256 ""
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(SIMDIST_FMA_NO_CLONES)
#define KERNEL __attribute__((target_clones("avx512f", "fma", "default")))
#else
#define KERNEL
#endif

KERNEL static void segments_kernel(const float *restrict x, const float *restrict y, float *restrict acc,
                                   const int64_t *restrict ends, Py_ssize_t nseg, Py_ssize_t k, Py_ssize_t n,
                                   float *restrict t) {
    /* four columns of x at a time (each output on its own: the same bits), so a row of y read from L1 feeds four
       partial rows */
    int64_t s = 0;
    for (Py_ssize_t g = 0; g < nseg; g++) {
        const int64_t e = ends[g];
        Py_ssize_t j = 0;
        for (; j + 4 <= k; j += 4) {
            float *t0 = t, *t1 = t + n, *t2 = t + 2 * n, *t3 = t + 3 * n;
            for (Py_ssize_t l = 0; l < n; l++)
                t0[l] = t1[l] = t2[l] = t3[l] = 0.0f;
            for (int64_t p = s; p < e; p++) {
                const float *xr = x + p * k + j;
                const float a0 = xr[0], a1 = xr[1], a2 = xr[2], a3 = xr[3];
                const float *row = y + p * n;
                for (Py_ssize_t l = 0; l < n; l++) {
                    const float v = row[l];
                    t0[l] = fmaf(a0, v, t0[l]);
                    t1[l] = fmaf(a1, v, t1[l]);
                    t2[l] = fmaf(a2, v, t2[l]);
                    t3[l] = fmaf(a3, v, t3[l]);
                }
            }
            for (int q = 0; q < 4; q++) {
                float *out = acc + (j + q) * n;
                const float *tq = t + q * n;
                for (Py_ssize_t l = 0; l < n; l++)
                    out[l] = out[l] + tq[l];
            }
        }
        for (; j < k; j++) {
            for (Py_ssize_t l = 0; l < n; l++)
                t[l] = 0.0f;
            for (int64_t p = s; p < e; p++) {
                const float a = x[p * k + j];
                const float *row = y + p * n;
                for (Py_ssize_t l = 0; l < n; l++)
                    t[l] = fmaf(a, row[l], t[l]);
            }
            float *out = acc + j * n;
            for (Py_ssize_t l = 0; l < n; l++)
                out[l] = out[l] + t[l];
        }
        s = e;
    }
}

static int get_buffer(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t need, const char *fmt,
                      const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    Py_ssize_t size = fmt[0] == 'f' ? 4 : 8;
    if (view->itemsize != size || view->format == NULL || strcmp(view->format, fmt) != 0) {
        PyErr_Format(PyExc_TypeError, "_fma_rows: %s must be a %s buffer (format %s)", what,
                     fmt[0] == 'f' ? "float32" : "int64", view->format ? view->format : "?");
        PyBuffer_Release(view);
        return -1;
    }
    if (view->len / size < need) {
        PyErr_Format(PyExc_ValueError, "_fma_rows: %s holds %zd elements, %zd needed", what, view->len / size, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *py_segments(PyObject *self, PyObject *args) {
    PyObject *xo, *yo, *ao, *eo;
    Py_ssize_t p, k, n;
    Py_buffer xv, yv, av, ev;
    if (!PyArg_ParseTuple(args, "OOOOnnn", &xo, &yo, &ao, &eo, &p, &k, &n))
        return NULL;
    if (p < 0 || k < 0 || n < 0) {
        PyErr_SetString(PyExc_ValueError, "_fma_rows: negative dimension");
        return NULL;
    }
    if (get_buffer(xo, &xv, 0, p * k, "f", "x") < 0)
        return NULL;
    if (get_buffer(yo, &yv, 0, p * n, "f", "y") < 0) {
        PyBuffer_Release(&xv);
        return NULL;
    }
    if (get_buffer(ao, &av, 1, k * n, "f", "acc") < 0) {
        PyBuffer_Release(&xv);
        PyBuffer_Release(&yv);
        return NULL;
    }
    if (PyObject_GetBuffer(eo, &ev, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0 || ev.itemsize != 8) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "_fma_rows: ends must be an int64 buffer");
        PyBuffer_Release(&xv);
        PyBuffer_Release(&yv);
        PyBuffer_Release(&av);
        return NULL;
    }
    Py_ssize_t nseg = ev.len / 8;
    const int64_t *ends = (const int64_t *)ev.buf;
    int64_t prev = 0;
    for (Py_ssize_t g = 0; g < nseg; g++) {
        if (ends[g] < prev || ends[g] > p) {
            PyErr_SetString(PyExc_ValueError, "_fma_rows: ends must rise within the rows");
            PyBuffer_Release(&xv);
            PyBuffer_Release(&yv);
            PyBuffer_Release(&av);
            PyBuffer_Release(&ev);
            return NULL;
        }
        prev = ends[g];
    }
    float *t = (float *)malloc((size_t)(n > 0 ? 4 * n : 4) * sizeof(float));
    if (t == NULL) {
        PyBuffer_Release(&xv);
        PyBuffer_Release(&yv);
        PyBuffer_Release(&av);
        PyBuffer_Release(&ev);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    segments_kernel((const float *)xv.buf, (const float *)yv.buf, (float *)av.buf, ends, nseg, k, n, t);
    Py_END_ALLOW_THREADS
    free(t);
    PyBuffer_Release(&xv);
    PyBuffer_Release(&yv);
    PyBuffer_Release(&av);
    PyBuffer_Release(&ev);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"segments", py_segments, METH_VARARGS,
     "segments(x, y, acc, ends, p, k, n): for each row segment in order, acc += (x[seg].T @ y[seg] over the "
     "segment's rows in order with float32 fused multiply-adds from +0)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fma_rows", NULL, -1, methods};

PyMODINIT_FUNC PyInit__fma_rows(void) {
    PyObject *mod = PyModule_Create(&module);
    if (mod == NULL)
        return NULL;
    if (PyModule_AddStringConstant(mod, "SOURCE_SHA256", SIMDIST_FMA_SHA256) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
