"""Print the SIMD features numpy dispatches to above its baseline, on this CPU.

    NPY_DISABLE_CPU_FEATURES="$(python scripts/simd_features.py)" python -m pytest ...

runs numpy as on a CPU that has only the baseline of its build (``make
test-baseline-simd``): numpy picks its float32/float64 ``sin``, ``cos``, ``exp``
and others at run time from these features, so their last bits differ between
CPUs. The list is what ``numpy.show_runtime()`` reports as ``found`` (features
numpy was built to dispatch to and this CPU has); it is empty on a CPU with
nothing above the baseline.
"""

try:  # numpy >= 2
    from numpy._core import _multiarray_umath as umath
except ImportError:  # numpy 1.x
    from numpy.core import _multiarray_umath as umath


def found_features():
    """The features above the baseline that numpy dispatches to on this CPU.

    Examples
    --------
    >>> set(found_features()) <= set(umath.__cpu_dispatch__)
    True
    """
    features = umath.__cpu_features__  # {name: available on this CPU}
    return [name for name in umath.__cpu_dispatch__ if features.get(name)]


if __name__ == "__main__":
    print(" ".join(found_features()))
