/* Reading a joint's torque or axial force (a time law or a drive). */
#ifndef NSEDI_READ_DRIVE_H
#define NSEDI_READ_DRIVE_H

#include "yread.h"

/* node is a time law (into *time_law, drive->type NONE) or
 * {type: feedback, k, c, reference, feedforward} or
 * {type: table, of: coordinate|rate, at: [...], values: [...]} (into
 * *drive, whose laws must hold their defaults). 0 or -1 (reported). */
int nsedi_read_joint_load(nsedi_diag *d, const nsedi_ynode *node, const char *path,
                          nsed_joint_drive *drive, nsed_law *time_law);

#endif
