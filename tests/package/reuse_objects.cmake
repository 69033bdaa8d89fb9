# reuse_objects(MAIN_BUILD SUB_BINARY_DIR SUB_BUILD): the add_subdirectory check of
# example_project.cmake links the main build's object files instead of compiling streamsim a
# second time (issue 38: the test compiled the whole project again, minutes on a bare machine).
# An object of the main build (compile_commands.json) is copied to the same place under SUB_BINARY_DIR
# (streamsim's binary folder inside the user's build, a "Unix Makefiles" build configured just
# before) only when its compile is the same there:
#   - its target exists in the user's build (a CMakeFiles/<target>.dir with a flags.make),
#   - the compiler, defines, include folders and flags of the target's flags.make are the
#     object's compile command's, token for token (an object with flags of its own, such as a
#     per-source definition, differs and is compiled),
#   - its source is the same file (a unity batch, generated in each build, has the same text).
# Copied objects are then dated after the configure (make rebuilds an object older than its
# flags.make or its sources), so make only archives and links them. Every other object compiles.
# Sets REUSED and COMPILED (counts) in the caller's scope.
function(reuse_objects main sub_dir sub_build)
  file(READ ${main}/compile_commands.json commands)
  string(JSON n LENGTH "${commands}")
  set(reused 0)
  set(compiled 0)
  set(copied)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON command GET "${commands}" ${i} command)
    string(JSON source GET "${commands}" ${i} file)
    string(JSON directory GET "${commands}" ${i} directory)
    separate_arguments(args UNIX_COMMAND "${command}")
    # <compiler> <flags...> -o <object> -c <source>, the object relative to `directory`.
    list(FIND args -o at)
    if(at EQUAL -1)
      continue()
    endif()
    math(EXPR at_object "${at} + 1")
    list(GET args ${at_object} object_arg)
    list(REMOVE_ITEM args ${object_arg})  # compared below without it
    get_filename_component(object "${object_arg}" ABSOLUTE BASE_DIR "${directory}")
    file(RELATIVE_PATH object "${main}" "${object}")
    # The object's target folder: <dir>/CMakeFiles/<target>.dir/...
    if(NOT object MATCHES "^(.*/)?CMakeFiles/[^/]+\\.dir/")
      continue()
    endif()
    set(target_dir "${CMAKE_MATCH_0}")
    if(NOT EXISTS ${sub_dir}/${target_dir}flags.make)  # not a target of the user's build (a test)
      continue()
    endif()
    # The flags, as the compile line of the user's build would give them.
    file(STRINGS ${sub_dir}/${target_dir}flags.make lines)
    set(want)
    set(compiler)
    foreach(line IN LISTS lines)
      if(line MATCHES "^# compile CXX with (.*)$")
        set(compiler "${CMAKE_MATCH_1}")
      elseif(line MATCHES "^CXX_(DEFINES|INCLUDES|FLAGS) = (.*)$")
        separate_arguments(tokens UNIX_COMMAND "${CMAKE_MATCH_2}")
        list(APPEND want ${tokens})
      endif()
    endforeach()
    list(TRANSFORM want REPLACE "^${sub_dir}" "${main}")
    list(GET args 0 have_compiler)
    list(SUBLIST args 1 -1 have)
    list(REMOVE_ITEM have -o -c ${source})
    list(SORT want)
    list(SORT have)
    set(same_source TRUE)
    string(FIND "${source}" "${main}/" in_build)
    if(in_build EQUAL 0)  # generated in the build (a unity batch): the same text in both
      string(REPLACE "${main}/" "${sub_dir}/" sub_source "${source}")
      set(same_source FALSE)
      if(EXISTS ${sub_source})
        file(READ ${source} a)
        file(READ ${sub_source} b)
        if(a STREQUAL b)
          set(same_source TRUE)
        endif()
      endif()
    endif()
    if(compiler STREQUAL have_compiler AND want STREQUAL have AND same_source AND EXISTS ${main}/${object})
      get_filename_component(into ${sub_dir}/${object} DIRECTORY)
      file(COPY ${main}/${object} DESTINATION ${into})
      list(APPEND copied ${sub_dir}/${object})
      math(EXPR reused "${reused} + 1")
    else()
      math(EXPR compiled "${compiled} + 1")
    endif()
  endforeach()
  if(copied)
    file(TOUCH_NOCREATE ${copied})
  endif()
  set(REUSED ${reused} PARENT_SCOPE)
  set(COMPILED ${compiled} PARENT_SCOPE)
endfunction()
