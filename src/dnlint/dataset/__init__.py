"""The data set as a training job reads it (``--check-labels``): every image of the train= and
valid= lists, the label file each dialect derives from it, and what the loader makes of it.

``label_path`` derives the label path per dialect, ``label_file`` reads one label file as
``read_boxes`` does (bounded), ``lists`` reads a list file as ``get_paths`` does, ``classify``
matches a classifier's labels as ``fill_truth`` does, ``check`` runs them over the lists and
reports (folded), and ``summary`` is what is counted for the report.
"""
