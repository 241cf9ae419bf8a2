"""DN5xx: .weights files and how Darknet's loaders read them."""

from dnlint.rules import E, rule

rule("DN501", "numload-out-of-range", E,
     summary="numload is negative or larger than filters (original Darknet).",
     darknet="load_convolutional_weights reads numload filters into arrays sized for filters: a "
             "heap overflow, or a huge read for a negative value.",
     bad="[convolutional]\nfilters=16\nnumload=32", good="[convolutional]\nfilters=16\nnumload=8",
     reference="W3")
