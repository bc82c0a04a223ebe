// octet._octet: the native classes behind octet.Interpreter (python/octet/interpreter.py).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "interpreter_wrapper.h"
#include "octet/kernel_path.h"
#include "octet/xnnpack_delegate.h"

namespace py = pybind11;
using octet_python::NativeDelegate;
using octet_python::NativeInterpreter;
using octet_python::TensorViewGuard;

PYBIND11_MODULE(_octet, m) {
  m.doc() = "Octet's native interpreter binding (use octet.Interpreter)";
  // NumPy must be importable before any array is made.
  py::module_::import("numpy");

  m.attr("RESOLVER_BUILTIN") = static_cast<int>(octet_python::kResolverBuiltin);
  m.attr("RESOLVER_BUILTIN_REF") = static_cast<int>(octet_python::kResolverBuiltinRef);
  m.attr("RESOLVER_BUILTIN_WITHOUT_DEFAULT_DELEGATES") =
      static_cast<int>(octet_python::kResolverBuiltinNoDelegates);

  m.def("xnnpack_available", &OctetXnnpackAvailable,
        "True when this build has the XNNPACK delegate and it runs on this CPU");
  m.def(
      "active_kernel_path", [] { return std::string(octet::ActiveKernelPath()); },
      "The kernel path (instruction set) built-in kernels prepared now use");
  m.def("supported_kernel_paths", &octet::SupportedKernelPaths,
        "The kernel paths this CPU runs, best first");

  py::class_<TensorViewGuard>(m, "_TensorViewGuard");

  py::class_<NativeDelegate>(m, "NativeDelegate")
      .def_static("create_xnnpack", &NativeDelegate::CreateXnnpack, py::arg("num_threads"));

  py::class_<NativeInterpreter>(m, "NativeInterpreter")
      .def_static("from_file", &NativeInterpreter::FromFile, py::arg("path"),
                  py::arg("resolver_id"), py::arg("num_threads"))
      .def_static("from_buffer", &NativeInterpreter::FromBuffer, py::arg("data"),
                  py::arg("resolver_id"), py::arg("num_threads"))
      .def("allocate_tensors", &NativeInterpreter::AllocateTensors, py::arg("subgraph") = -1)
      .def("invoke", &NativeInterpreter::Invoke, py::arg("subgraph") = -1)
      .def("resize_input_tensor", &NativeInterpreter::ResizeInputTensor, py::arg("tensor_index"),
           py::arg("dims"), py::arg("strict"), py::arg("subgraph") = -1)
      .def("reset_variable_tensors", &NativeInterpreter::ResetVariableTensors)
      .def("set_num_threads", &NativeInterpreter::SetNumThreads, py::arg("num_threads"))
      .def("set_max_memory_bytes", &NativeInterpreter::SetMaxMemoryBytes, py::arg("max_bytes"))
      .def("max_memory_bytes", &NativeInterpreter::MaxMemoryBytes)
      .def("memory_used_bytes", &NativeInterpreter::MemoryUsedBytes)
      .def("modify_graph_with_delegate", &NativeInterpreter::ModifyGraphWithDelegate,
           py::arg("delegate"))
      .def("input_indices", &NativeInterpreter::InputIndices)
      .def("output_indices", &NativeInterpreter::OutputIndices)
      .def("num_subgraphs", &NativeInterpreter::NumSubgraphs)
      .def("num_tensors", &NativeInterpreter::NumTensors, py::arg("subgraph") = 0)
      .def("tensor_details", &NativeInterpreter::TensorDetails, py::arg("tensor_index"),
           py::arg("subgraph") = 0)
      .def("set_tensor", &NativeInterpreter::SetTensor, py::arg("tensor_index"), py::arg("value"),
           py::arg("subgraph") = 0)
      .def("get_tensor", &NativeInterpreter::GetTensor, py::arg("tensor_index"),
           py::arg("subgraph") = 0)
      .def("tensor_view", &NativeInterpreter::TensorView, py::arg("tensor_index"),
           py::arg("subgraph") = 0)
      .def("live_views", &NativeInterpreter::live_views)
      .def("signature_defs", &NativeInterpreter::SignatureDefs)
      .def("signature_subgraph_index", &NativeInterpreter::SignatureSubgraphIndex, py::arg("key"))
      .def("num_nodes", &NativeInterpreter::NumNodes)
      .def("node_inputs", &NativeInterpreter::NodeInputs, py::arg("node_index"))
      .def("node_outputs", &NativeInterpreter::NodeOutputs, py::arg("node_index"))
      .def("node_name", &NativeInterpreter::NodeName, py::arg("node_index"))
      .def("node_kernel", &NativeInterpreter::NodeKernel, py::arg("node_index"));
}
