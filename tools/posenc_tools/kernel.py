"""Kernels of *this* Python: for running notebooks (``posenc_tools.run_notebooks``)
and for grading them (:mod:`posenc_tools.grading`).

A plain ``python3`` kernel name may mean another interpreter's kernelspec; these
managers always start ``ipykernel`` in the interpreter that runs them, as nbval's
``--nbval-current-env`` does. Importing this module imports jupyter_client and
ipykernel (dev or grading dependencies), never at ``import posenc_lib`` time.
"""

import ipykernel.kernelspec
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from traitlets import default

__all__ = [
    "WARM_MODULES",
    "WARM_UP",
    "CurrentEnvKernelManager",
    "CurrentEnvKernelSpecs",
]

#: imported by a kernel before its learner's turn (the exercise imports them too)
WARM_MODULES = ("numpy", "posenc_lib.figures", "posenc_lib.exercise")
#: the kernel's command-line argument that imports them as it starts
WARM_UP = "--IPKernelApp.exec_lines=" + "".join(
    f"__import__({name!r});" for name in WARM_MODULES
)


class CurrentEnvKernelSpecs(KernelSpecManager):
    """Every kernel name means this interpreter."""

    def get_kernel_spec(self, kernel_name):
        return self.kernel_spec_class(
            resource_dir=ipykernel.kernelspec.RESOURCES,
            **ipykernel.kernelspec.get_kernel_dict(),
        )


class CurrentEnvKernelManager(AsyncKernelManager):
    """A kernel manager that always starts a kernel of this interpreter."""

    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self):
        return CurrentEnvKernelSpecs(data_dir=self.data_dir)
