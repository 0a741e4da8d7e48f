# Included by llama.cpp's project() calls (CMAKE_PROJECT_INCLUDE, set by scripts/setup-local-model.sh): compile each
# target's sources in unity batches, which parses the heavy shared headers (JSON, the server's HTTP library, chat
# templates) once per batch instead of once per file. Except mtmd, the multimodal library the server links: its
# helper refuses, by design, to share a translation unit with mtmd's internal headers.
set(CMAKE_UNITY_BUILD ON)
function(hybrid_mtmd_without_unity)
  if(TARGET mtmd)
    set_target_properties(mtmd PROPERTIES UNITY_BUILD OFF)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL hybrid_mtmd_without_unity)
