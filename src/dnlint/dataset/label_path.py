"""Where each dialect looks for the label file of an image (fill_truth_detection).

- The original Darknet (``fill_truth_detection`` in data.c) replaces, in this order, the
  *first* occurrence anywhere in the path of ``images``, ``JPEGImages`` and ``raw`` by
  ``labels``, then the first ``.jpg``, ``.png``, ``.JPG``, ``.JPEG`` by ``.txt``. Any other
  extension (``.jpeg``, ``.bmp``) is left, so the image itself is opened as its label file.
- AlexeyAB's (``replace_image_to_label`` in utils.c) replaces only whole folder names of the
  COCO and VOC layouts (``/images/train2017/``, ``/JPEGImages/`` ...), trims spaces and tabs
  at both ends, then replaces an image extension at the *end* of the path
  (``find_replace_extension``); when the result does not end with ``.txt`` it prints "Failed
  to infer label file name" and reads the path it has.
- hank-ai's (``replace_image_to_label`` in utils.cpp) cuts the path at its last ``.`` (in a
  folder name too, when the file has no extension) and appends ``.txt``.
"""

from __future__ import annotations

from dnlint.dialects import Dialect

# fill_truth_detection of the original Darknet: (find, replace), first occurrence each
PJ_STEPS = (("images", "labels"), ("JPEGImages", "labels"), ("raw", "labels"),
            (".jpg", ".txt"), (".png", ".txt"), (".JPG", ".txt"), (".JPEG", ".txt"))
# AlexeyAB's replace_image_to_label: folder names (first occurrence each), then extensions
AB_FOLDERS = (
    ("/images/train2017/", "/labels/train2017/"), ("/images/val2017/", "/labels/val2017/"),
    ("/JPEGImages/", "/labels/"),
    ("\\images\\train2017\\", "\\labels\\train2017\\"),
    ("\\images\\val2017\\", "\\labels\\val2017\\"),
    ("\\images\\train2014\\", "\\labels\\train2014\\"),
    ("\\images\\val2014\\", "\\labels\\val2014\\"),
    ("/images/train2014/", "/labels/train2014/"), ("/images/val2014/", "/labels/val2014/"),
    ("\\JPEGImages\\", "\\labels\\"),
)
AB_EXTENSIONS = (".jpg", ".JPG", ".jpeg", ".JPEG", ".png", ".PNG", ".bmp", ".BMP", ".ppm",
                 ".PPM", ".tiff", ".TIFF")
PJ_EXTENSIONS = (".jpg", ".png", ".JPG", ".JPEG")
_AB_EXTENSION_SET = frozenset(AB_EXTENSIONS)


def label_path(image: str, dialect: Dialect) -> str:
    """The label file ``dialect`` opens for the image path ``image`` (as read from the list)."""
    if dialect is Dialect.PJ:
        return _replace_first(image, PJ_STEPS)
    if dialect is Dialect.AB:
        # every folder name AlexeyAB's rewrites holds "mages": most paths skip the ten passes
        path = (_replace_first(image, AB_FOLDERS) if "mages" in image else image).strip(" \t")
        # one extension at most matches the end, and after it the path ends with .txt
        dot = path.rfind(".")
        if dot >= 0 and path[dot:] in _AB_EXTENSION_SET:
            path = path[:dot] + ".txt"
        return path
    cut = image.rfind(".")
    return (image[:cut] if cut >= 0 else image) + ".txt"


def _replace_first(path: str, steps: tuple[tuple[str, str], ...]) -> str:
    for find, replace in steps:
        path = path.replace(find, replace, 1)
    return path


def knows_extension(image: str, dialect: Dialect) -> bool:
    """Whether ``dialect`` maps the image's extension to ``.txt`` (else it reads the image, or
    a path it could not infer, as the label file)."""
    if dialect is Dialect.HANK:
        return True
    return label_path(image, dialect).endswith(".txt")
