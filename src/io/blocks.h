/* Assembly blocks of a problem file: omni_vehicle, omni_wheel_testbench and
 * disk_on_shaft (docs/problem-format.md). Each is read into its definition
 * struct (read_vehicle.c, read_testbench.c, read_disk.c) and built by the
 * assemblies layer; its parts join the file's own items in two steps:
 * nsedi_blocks_bodies appends the blocks' bodies after the user's (so that
 * user-written joints, forces and contacts may name them) and keeps the
 * rest; nsedi_blocks_links appends their joints, forces and contacts after
 * the user's and reports generated names that clash with user-written
 * ones. Both return -1 if anything was reported, -2 when out of memory. */
#ifndef NSEDI_BLOCKS_H
#define NSEDI_BLOCKS_H

#include "build.h"
#include "nsed/assemblies.h"

typedef struct nsedi_blocks nsedi_blocks;
int nsedi_blocks_bodies(nsedi_problem_defs *p, nsedi_blocks **out);
int nsedi_blocks_links(nsedi_problem_defs *p, const nsedi_blocks *b);
void nsedi_blocks_free(nsedi_blocks *b);

/* The blocks' top-level keys, NULL-terminated. */
extern const char *const nsedi_block_keys[];

/* The key of the block whose mapping is node, or NULL. */
const char *nsedi_block_of(const nsedi_problem_defs *p, const nsedi_ynode *node);

/* Read one block (its mapping node) and build its parts into *a: 0, -1 if
 * anything was reported (*a then still holds parts named as the block would
 * name them, or nothing), -2 when out of memory. */
int nsedi_read_vehicle_block(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_assembly *a);
int nsedi_read_testbench_block(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_assembly *a);
int nsedi_read_disk_block(nsedi_problem_defs *p, const nsedi_ynode *node, nsed_assembly *a);

#endif
