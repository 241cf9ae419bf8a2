"""The data set stage, ``--check-labels`` (bytes → read → options → network → weights → checks
→ **dataset** → settings/policy → reporters): the images and label files a ``.data`` file's
train= and valid= lists name, as a training job reads them. The pipeline calls it with the
lists ``checks.data_file`` found readable; its findings and summaries go to the reporters.

``check`` is the entry (``check_dataset``): it reads the classes and names, and a classifier's
labels file and tree (``classifier_files``), then runs the list pass (``list_pass``: each line
as ``get_paths`` reads it, ``lists``; a classifier's label in each path, ``classify``) and, for
a detector, the label-file pass (``label_pass``: the label path per dialect, ``label_path``;
the file as ``read_boxes`` reads it, bounded, ``label_file``). Both report through ``folding``
(the first findings of each rule, the rest counted), say what each fork does in ``words``, and
count into ``summary``, which ``report`` turns into the report's table.
"""
