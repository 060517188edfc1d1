"""A learned mention tagger: a small transformer encoder fine-tuned to tag method, dataset, task
and metric mentions (BIO over wordpieces), run at build time through onnxruntime.

`runtime` loads the shipped model and tags text; `cutoffs` reads the confidence cutoffs that
mentions.v2 applies; `data` and `train` rebuild the model (torch, the `train` extra); `folds`,
`cv`, `heldout`, `thresholds` and `oof_errors` cross-validate it on the train splits, choose
the cutoffs and sort its errors.
"""
