# The model tools' library (octet quantize / fuse): an editable model from flatc's object API
# (ModelT), passes over it, and writing it back. Included from CMakeLists.txt after the
# `octet` target; the runtime library does not carry it.
#
# The object API roughly doubles the generated schema header, so it is generated apart, from
# a copy of the schema in namespace octet::edit: only the tools' sources parse it, and its
# classes never define the runtime's tflite:: ones a second way.
set(OCTET_EDIT_DIR ${OCTET_GEN_DIR}/octet_edit)
set(OCTET_EDIT_SCHEMA ${OCTET_EDIT_DIR}/edit_schema.fbs)
set(OCTET_EDIT_HEADER ${OCTET_EDIT_DIR}/edit_schema_generated.h)
add_custom_command(
  OUTPUT ${OCTET_EDIT_HEADER}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${OCTET_EDIT_DIR}
  COMMAND ${CMAKE_COMMAND} -DIN=${OCTET_SCHEMA} -DOUT=${OCTET_EDIT_SCHEMA}
          -P ${CMAKE_SOURCE_DIR}/cmake/edit_schema.cmake
  COMMAND ${FLATC} --cpp --gen-object-api -o ${OCTET_EDIT_DIR} ${OCTET_EDIT_SCHEMA}
  DEPENDS ${OCTET_SCHEMA} ${CMAKE_SOURCE_DIR}/cmake/edit_schema.cmake
  COMMENT "flatc: generating the object-API schema for the model tools")
add_custom_target(octet_edit_schema DEPENDS ${OCTET_EDIT_HEADER})

file(GLOB_RECURSE OCTET_CONVERTER_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/converter/*.cc)
add_library(octet_converter STATIC ${OCTET_CONVERTER_SOURCES})
add_dependencies(octet_converter octet_edit_schema)
target_include_directories(octet_converter PUBLIC ${OCTET_EDIT_DIR} ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(octet_converter PUBLIC octet)
