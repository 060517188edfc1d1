"""Training of the learned mention tagger: a small transformer encoder fine-tuned to tag method,
dataset, task and metric mentions (BIO over wordpieces). At build time it runs through
onnxruntime in graph.nlp.tagging, with the confidence cutoffs of graph.nlp.tagging_cutoffs, so
that extraction never imports this package (it reads the annotated corpora of graph.eval).

`data` and `train` rebuild the model (torch, the `train` extra); `folds`,
`cv`, `heldout`, `thresholds` and `oof_errors` cross-validate it on the train splits, choose
the cutoffs and sort its errors.
"""
