/* NSED_API marks the functions libnsed exports. The library is compiled with
 * hidden visibility, so everything else in it (the internal nsedi_ functions)
 * stays out of the shared library's symbol table. */
#ifndef NSED_EXPORT_H
#define NSED_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define NSED_API __attribute__((visibility("default")))
#else
#define NSED_API
#endif

#endif
