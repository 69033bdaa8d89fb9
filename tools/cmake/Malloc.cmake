# The allocator of streamsim's executables (docs/performance.md "tcmalloc for the executables").
#
# A sweep seed spends about a fifth of its instructions in glibc's malloc and free (many small
# rows, values and strings made and dropped per batch); gperftools' tcmalloc takes most of that
# out: `streamsim bench --only 4` ran ~28% more seeds a second with it on this project's VM. So the
# CLI (every streamsim_add_runner runner), the test binaries and streamsim-python link
# tcmalloc_minimal when it is installed (Debian: libgoogle-perftools-dev, which tools/install-deps
# installs) and fall back to the system's malloc when it is not. Never under the sanitizers (ASan
# brings its own allocator) and never into the Python extension module (the interpreter that loads
# it keeps its own malloc). -DSTREAMSIM_TCMALLOC=OFF links the system's malloc.
option(STREAMSIM_TCMALLOC "Link streamsim's executables with tcmalloc (gperftools) when it is installed" ON)

if(STREAMSIM_TCMALLOC AND NOT STREAMSIM_SANITIZE AND NOT TARGET streamsim_malloc)
  find_library(STREAMSIM_TCMALLOC_LIBRARY NAMES tcmalloc_minimal)
  if(STREAMSIM_TCMALLOC_LIBRARY)
    add_library(streamsim_malloc INTERFACE)
    # --no-as-needed: nothing calls tcmalloc by name; it replaces malloc by being loaded.
    target_link_libraries(streamsim_malloc INTERFACE "-Wl,--push-state,--no-as-needed"
                          "${STREAMSIM_TCMALLOC_LIBRARY}" "-Wl,--pop-state")
    message(STATUS "streamsim: executables use tcmalloc (${STREAMSIM_TCMALLOC_LIBRARY})")
  else()
    message(STATUS "streamsim: tcmalloc not found (libgoogle-perftools-dev): executables use the system's malloc")
  endif()
endif()

