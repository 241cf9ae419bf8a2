"""Run OpenCV's Darknet importer on cfg files, one JSON line per file (used by
tests/test_opencv_oracle.py in a subprocess: OpenCV may die of SIGFPE on some inputs).

    python opencv_worker.py load CFG...                 does readNetFromDarknet(cfg) succeed
    python opencv_worker.py shapes WEIGHTS C,H,W,CFG...  getLayersShapes for a 1xCxHxW input
"""

from __future__ import annotations

import json
import sys


def _load(paths: list[str]) -> None:
    import cv2

    for path in paths:
        try:
            cv2.dnn.readNetFromDarknet(path)
            record = {"path": path, "loads": True, "error": ""}
        except cv2.error as exc:
            record = {"path": path, "loads": False, "error": str(exc).strip()[-300:]}
        print(json.dumps(record), flush=True)


def _shapes(weights: str, specs: list[str]) -> None:
    import cv2

    for spec in specs:
        channels, height, width, path = spec.split(",", 3)
        net = cv2.dnn.readNetFromDarknet(path, weights)
        try:
            ids, _inputs, outputs = net.getLayersShapes([1, int(channels), int(height),
                                                         int(width)])
        except cv2.error as exc:
            print(json.dumps({"path": path, "error": str(exc).strip()[-300:]}), flush=True)
            continue
        by_id = {int(i): [int(x) for x in out[0]]
                 for i, out in zip(list(ids), outputs, strict=True)}
        names = {name: by_id.get(net.getLayerId(name)) for name in net.getLayerNames()}
        print(json.dumps({"path": path, "shapes": names}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "load":
        _load(sys.argv[2:])
    else:
        _shapes(sys.argv[2], sys.argv[3:])
