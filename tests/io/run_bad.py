#!/usr/bin/env python3
"""Every malformed problem file in tests/io/bad/ through `nsed run`.

For each file: exit status 2, stderr names FILE:LINE:COLUMN and the key
(or the YAML problem), and no output directory appears, neither the given
-o DIR nor the default results/<name> nor a leftover DIR.tmp-*.
Usage: run_bad.py NSED BAD_DIR
"""
import os
import subprocess
import sys
import tempfile

# file -> substrings stderr must contain (the first is always FILE:LINE:COL).
CASES = {
    "syntax_error.yaml": ["syntax_error.yaml:4:4:", "YAML syntax error"],
    "torsion_with_cone.yaml": ["torsion_with_cone.yaml:8:54:", "contacts[0].torsion:", "needs friction.model: polygon"],
    "torsion_with_trial.yaml": ["torsion_with_trial.yaml:7:54:", "contacts[0].torsion:", "needs solver.event_resolver: lcp"],
    "vehicle_torsion_cone.yaml": ["vehicle_torsion_cone.yaml:2:31:", "omni_vehicle.contact.torsion:", "needs friction.model: polygon"],
    "testbench_torsion_trial.yaml": ["testbench_torsion_trial.yaml:2:31:", "omni_wheel_testbench.contact.torsion:", "needs solver.event_resolver: lcp"],
    "unclosed_bracket.yaml": ["unclosed_bracket.yaml:6:1:", "flow sequence"],
    "tab_indentation.yaml": ["tab_indentation.yaml:2:1:", "YAML syntax error"],
    "binary_garbage.yaml": ["binary_garbage.yaml:1:1:", "binary data"],
    "empty.yaml": ["empty.yaml:1:1:", "the file is empty"],
    "only_comments.yaml": ["only_comments.yaml:1:1:", "the file is empty"],
    "top_level_list.yaml": ["top_level_list.yaml:1:1:", "expected a mapping of top-level keys"],
    "two_documents.yaml": ["two_documents.yaml:6:1:", "one YAML document"],
    "yaml_alias.yaml": ["yaml_alias.yaml:11:12:", "aliases"],
    "mass_is_string.yaml": ["mass_is_string.yaml:3:11:", "bodies[0].mass: expected a positive number, got heavy"],
    "mass_quoted_number.yaml": ["mass_quoted_number.yaml:3:11:", "bodies[0].mass:", 'the string "1"'],
    "position_two_numbers.yaml": ["position_two_numbers.yaml:5:15:", "bodies[0].position: expected a list of 3 numbers"],
    "bodies_not_a_list.yaml": ["bodies_not_a_list.yaml:2:3:", "bodies: expected a list"],
    "missing_mass.yaml": ["missing_mass.yaml:2:5:", "bodies[0].mass: required key 'mass' is missing"],
    "missing_bodies.yaml": ["missing_bodies.yaml:1:1:", "required key 'bodies' is missing"],
    "missing_shape_type.yaml": ["missing_shape_type.yaml:4:12:", "bodies[0].shape.type: required key"],
    "sphere_without_radius.yaml": ["sphere_without_radius.yaml:4:12:", "bodies[0].shape.radius: a sphere needs 'radius'"],
    "no_inertia_no_shape.yaml": ["no_inertia_no_shape.yaml:2:5:", "bodies[0]: give 'inertia'"],
    "duplicate_body_name.yaml": ["duplicate_body_name.yaml:6:11:", "bodies[1].name: duplicate body name 'ball'"],
    "duplicate_key.yaml": ["duplicate_key.yaml:4:5:", "duplicate key 'mass'"],
    "unknown_contact_body.yaml": ["unknown_contact_body.yaml:8:11:", "contacts[0].body: no body named 'bal' (did you mean 'ball'?)"],
    "unknown_joint_body.yaml": ["unknown_joint_body.yaml:9:13:", "joints[0].body_b: no body named 'wheel'"],
    "unknown_key_typo.yaml": ["unknown_key_typo.yaml:6:5:", "bodies[0].veloctiy: unknown key 'veloctiy' (did you mean 'velocity'?)"],
    "unknown_top_level_key.yaml": ["unknown_top_level_key.yaml:6:1:", "solvr: unknown key 'solvr' (did you mean 'solver'?)"],
    "step_controller_unknown.yaml": ["step_controller_unknown.yaml:7:20:", "solver.step_controller: unknown value 'pid' (did you mean 'pi'?)"],
    "step_controller_cvode.yaml": ["step_controller_cvode.yaml:8:20:", "solver.step_controller: applies to the arkode integrators; cvode_bdf"],
    "steps_cvode.yaml": ["steps_cvode.yaml:9:10:", "output.steps: the step log needs an arkode integrator; cvode_adams"],
    "steps_not_boolean.yaml": ["steps_not_boolean.yaml:7:10:", "output.steps: expected one of false, true, got yes please"],
    "unknown_integrator.yaml": ["unknown_integrator.yaml:7:15:", "solver.integrator: unknown value 'arkode_dp4' (did you mean 'arkode_dp5'?)"],
    "shape_typo.yaml": ["shape_typo.yaml:4:19:", "bodies[0].shape.type: unknown value 'sphear' (did you mean 'sphere'?)"],
    "negative_mass.yaml": ["negative_mass.yaml:3:11:", "bodies[0].mass: expected a positive number, got -1"],
    "mu0_below_mu.yaml": ["mu0_below_mu.yaml:10:10:", "contacts[0].mu0:", "mu0 >= mu"],
    "t_end_zero.yaml": ["t_end_zero.yaml:7:10:", "solver.t_end: expected a positive number, got 0"],
    "t_end_negative.yaml": ["t_end_negative.yaml:7:10:", "solver.t_end: expected a positive number, got -2.5"],
    "nan_literal.yaml": ["nan_literal.yaml:5:19:", "bodies[0].position[1]:", "NaN and infinity are not allowed"],
    "inf_literal.yaml": ["inf_literal.yaml:7:9:", "solver.rtol:", "NaN and infinity are not allowed"],
    "inertia_not_positive_definite.yaml": ["inertia_not_positive_definite.yaml:5:14:", "bodies[0].inertia:", "positive definite"],
    "inertia_triangle_violated.yaml": ["inertia_triangle_violated.yaml:5:14:", "bodies[0].inertia:", "J1 + J2 >= J3"],
    "rotor_not_symmetric.yaml": ["rotor_not_symmetric.yaml:5:12:", "bodies[0].rotor:", "body 'flywheel'",
                                 "equal moments about body x and y", "got 0.2 and 0.3"],
    "rotor_axis_typo.yaml": ["rotor_axis_typo.yaml:5:12:", "bodies[0].rotor: unknown value 'zz' (did you mean 'z'?)"],
    "vehicle_wheels_overlap.yaml": ["vehicle_wheels_overlap.yaml:4:46:", "omni_vehicle.wheel_positions[2]:",
                                    "wheels 1 and 2 overlap: their centres are 1.6 apart"],
    "vehicle_positions_and_distance.yaml": ["vehicle_positions_and_distance.yaml:4:19:", "omni_vehicle.wheel_distance:",
                                            "given by wheel_positions"],
    "vehicle_psi_list_length.yaml": ["vehicle_psi_list_length.yaml:4:8:", "omni_vehicle.psi:",
                                     "one inclination (rad) per wheel, 3, or one for all, got a list of 2"],
    "vehicle_roller_frame_typo.yaml": ["vehicle_roller_frame_typo.yaml:2:30:", "omni_vehicle.roller_frame:",
                                       "unknown value 'spinnig' (did you mean 'spinning'?)"],
    "sides_not_multiple_of_4.yaml": ["sides_not_multiple_of_4.yaml:7:10:", "friction.sides:", "multiple of 4"],
    "restitution_above_one.yaml": ["restitution_above_one.yaml:10:18:", "contacts[0].restitution: expected a number in [0, 1], got 1.5"],
    "servo_without_angle.yaml": ["servo_without_angle.yaml:7:5:", "joints[0].servo_angle:"],
    "piecewise_times_not_increasing.yaml": ["piecewise_times_not_increasing.yaml:11:48:", "forces[0].magnitude.times[2]:", "increase strictly"],
    "contact_without_shape.yaml": ["contact_without_shape.yaml:7:11:", "contacts[0].body:",
                                   "body 'lump' has no shape"],
    "feature_out_of_range.yaml": ["feature_out_of_range.yaml:4:45:", "contacts[0].feature:",
                                  "a cylinder has features 0..1, not 2"],
    "plane_zero_normal.yaml": ["plane_zero_normal.yaml:2:44:", "planes[0].normal: expected a non-zero direction"],
    "box_starts_inside_plane.yaml": ["box_starts_inside_plane.yaml:7:15:", "bodies[0].position:",
                                     "contact 'crate_wall.v1' starts interpenetrating",
                                     "0.05 m inside plane 'wall' (a vertex of the box)"],
    "feature_on_sphere.yaml": ["feature_on_sphere.yaml:4:45:", "contacts[0].feature:",
                               "feature applies to box, cylinder and capsule contacts with a plane or the floor only"],
    "unsupported_pair.yaml": ["unsupported_pair.yaml:11:43:", "contacts[0].with:",
                              "body-body contacts are a sphere (the contact's body) against a sphere,",
                              "('crate' is a box, 'ball' a sphere)"],
    "sphere_starts_inside_ellipsoid.yaml": ["sphere_starts_inside_ellipsoid.yaml:9:15:", "bodies[1].position:",
                                            "contact 'ball_egg' starts interpenetrating",
                                            "at least 0.1 m inside body 'egg'"],
    "superellipsoid_exponent_low.yaml": ["superellipsoid_exponent_low.yaml:4:74:", "bodies[0].shape.exponent:",
                                         "must lie in [2, 100]", "got 1.5"],
    "superellipsoid_no_exponent.yaml": ["superellipsoid_no_exponent.yaml:4:12:", "bodies[0].shape.exponent:",
                                        "a superellipsoid needs 'exponent'"],
    "tracking_differential_box.yaml": ["tracking_differential_box.yaml:7:48:", "contacts[0].tracking:",
                                       "differential tracking applies to roller contacts and to an ellipsoid's",
                                       "(body 'crate' is a box)"],
    "tracking_implicit_ellipsoid.yaml": ["tracking_implicit_ellipsoid.yaml:7:44:", "contacts[0].tracking:",
                                         "implicit tracking applies to roller contacts only"],
    "plane_name_taken.yaml": ["plane_name_taken.yaml:2:12:", "planes[0].name:", "the name is taken"],
    "zero_quaternion.yaml": ["zero_quaternion.yaml:6:18:", "bodies[0].orientation:"],
    "zero_axis.yaml": ["zero_axis.yaml:10:13:", "joints[0].axis_a: expected a non-zero direction"],
    "drive_on_spherical.yaml": ["drive_on_spherical.yaml:9:13:", "joints[0].torque:", "revolute or cylindrical joint, not spherical"],
    "drive_type_typo.yaml": ["drive_type_typo.yaml:9:20:", "joints[0].torque.type:", "feedback, table, got tabel"],
    "drive_table_of_typo.yaml": ["drive_table_of_typo.yaml:9:31:", "joints[0].torque.of: expected one of coordinate, rate, got angle"],
    "drive_feedback_empty.yaml": ["drive_feedback_empty.yaml:9:13:", "joints[0].torque:", "needs k, c or a feedforward law"],
    "drive_table_not_increasing.yaml": ["drive_table_not_increasing.yaml:9:47:", "joints[0].force.at[2]:", "increase strictly"],
    "drive_negative_gain.yaml": ["drive_negative_gain.yaml:9:33:", "joints[0].torque.k: expected a number >= 0, got -1"],
    "servo_feedback_on_revolute.yaml": ["servo_feedback_on_revolute.yaml:9:21:", "joints[0].servo_feedback:", "servo joints only, not revolute"],
    "starts_inside_floor.yaml": ["starts_inside_floor.yaml:7:15:", "bodies[0].position:",
                                 "contact 'ball_floor' starts interpenetrating", "0.05 m inside the floor"],
}

# Bad overrides on a good file: (args, substrings).
GOOD = "negative_mass.yaml"  # fixed by the first override below
OVERRIDE_CASES = [
    (["--set", "bodies.ball.mass=1", "--set", "bodies.bal.mass=2"],
     ["--set bodies.bal.mass=2:", "no item named 'bal' (did you mean 'ball'?)"]),
    (["--set", "bodies.ball.mass=1", "--set", "solver.t_end=-1"],
     ["--set solver.t_end=-1:", "solver.t_end: expected a positive number, got -1"]),
    (["--set", "bodies.ball.mass=1", "--set", "bodies.ball.velocity=[1,0"],
     ["--set bodies.ball.velocity=[1,0:", "YAML syntax error"]),
    (["--set", "bodies.ball.mass=1", "--set", "solver.rtl=1e-8"],
     ["--set solver.rtl=1e-8:", "solver.rtl: unknown key 'rtl' (did you mean 'rtol'?)"]),
]


def run_case(nsed, problem, extra, expect, failures):
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out")
        # Twice: with -o, and with the default results/<name> under cwd = work.
        for args in (["-o", out], []):
            p = subprocess.run([nsed, "run", problem] + extra + args, cwd=work,
                               capture_output=True, timeout=60)
            err = p.stderr.decode("utf-8", "replace")
            label = "%s %s %s" % (os.path.basename(problem), " ".join(extra), " ".join(args))
            if p.returncode != 2:
                failures.append("%s: exit %d, expected 2; stderr:\n%s" % (label, p.returncode, err))
            for s in expect:
                if s not in err:
                    failures.append("%s: stderr lacks %r; stderr:\n%s" % (label, s, err))
            left = os.listdir(work)
            if left:
                failures.append("%s: left %s behind" % (label, left))


def main():
    nsed, bad = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    failures = []
    files = sorted(f for f in os.listdir(bad) if f.endswith(".yaml"))
    missing = set(files) ^ set(CASES)
    if missing:
        failures.append("files and CASES disagree: %s" % sorted(missing))
    for name in sorted(CASES):
        # Messages name the file as given on the command line.
        problem = os.path.join(bad, name)
        expect = [problem + e[len(name):] if i == 0 else e for i, e in enumerate(CASES[name])]
        run_case(nsed, problem, [], expect, failures)
    for extra, expect in OVERRIDE_CASES:
        run_case(nsed, os.path.join(bad, GOOD), extra, expect, failures)
    # A 50 MB file is refused before it is parsed.
    with tempfile.TemporaryDirectory() as big_dir:
        big = os.path.join(big_dir, "huge.yaml")
        with open(big, "w") as f:
            line = "# " + "x" * 1021 + "\n"
            for _ in range(50 * 1024):
                f.write(line)
        run_case(nsed, big, [], [big + ":", "larger than"], failures)
    # A file that does not exist.
    run_case(nsed, os.path.join(bad, "no_such_file.yaml"), [], ["no_such_file.yaml", "cannot open"], failures)
    for f in failures:
        print("FAIL:", f)
    print("%d bad-input cases, %d failures" % (len(CASES) + len(OVERRIDE_CASES) + 2, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
