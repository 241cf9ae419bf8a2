"""The network stage (bytes → read → options → **network** → weights → checks → dataset →
settings/policy → reporters): typed sections -> the network Darknet builds, every layer's
shapes and parameters.

:mod:`dnlint.network.layers` holds each layer type whole (its options, shape rule and weight
blocks); :mod:`dnlint.network.build` builds the layers in order, as parse_network_cfg does."""
