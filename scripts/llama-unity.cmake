# Included by llama.cpp's project() calls (CMAKE_PROJECT_INCLUDE, set by scripts/setup-local-model.sh): compile each
# target's sources in unity batches, which parses the heavy shared headers (JSON, the server's HTTP library, chat
# templates) once per batch instead of once per file. mtmd's two helper files stay out of its batches: they refuse,
# by design, to share a translation unit with mtmd's internal headers.
set(CMAKE_UNITY_BUILD ON)
function(hybrid_mtmd_helpers_apart)
  if(TARGET mtmd)
    get_target_property(mtmd_dir mtmd SOURCE_DIR)
    set_source_files_properties("${mtmd_dir}/mtmd-helper.cpp" "${mtmd_dir}/mtmd-helper-gen.cpp"
      DIRECTORY "${mtmd_dir}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL hybrid_mtmd_helpers_apart)
