/* Test plugin `cxx-boundary`: a shared object as plugins of ABI version 1 (the C++ boundary)
 * were, exporting a Boost.DLL alias named `repo_reader_plugin` and not the C entry. The loader
 * must refuse it as built against an ABI older than it loads, without calling anything in it. */
#define EXPORT __attribute__((visibility("default")))

EXPORT const void* repo_reader_plugin = 0;
