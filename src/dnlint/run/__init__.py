"""A command-line run around the per-file pipeline: paths in (walks, excludes, configuration),
what the user asked to see (policy, directives), outputs written without losing a file."""
