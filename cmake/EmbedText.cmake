# cmake -DIN=file -DOUT=file.inc -DDELIM=tag -P EmbedText.cmake
# Writes IN as a C++ raw string literal, so a shipped data file (a target
# description) is compiled into the library and cannot drift from it.
file(READ "${IN}" text)
string(FIND "${text}" ")${DELIM}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter ${DELIM}")
endif()
file(WRITE "${OUT}.tmp" "R\"${DELIM}(${text})${DELIM}\"\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
