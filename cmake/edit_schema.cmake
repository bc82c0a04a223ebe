# Copies the TFLite schema with its namespace renamed (tflite -> octet.edit), for the model
# tools' object-API header: its classes then never clash with the runtime's tflite:: ones.
# Usage: cmake -DIN=schema.fbs -DOUT=edit_schema.fbs -P edit_schema.cmake
file(READ "${IN}" schema)
string(REPLACE "namespace tflite;" "namespace octet.edit;" schema "${schema}")
file(WRITE "${OUT}" "${schema}")
