"""A learned mention tagger: a small transformer encoder fine-tuned to tag method, dataset, task
and metric mentions (BIO over wordpieces), run at build time through onnxruntime.

`runtime` loads the shipped model and tags text; `data` and `train` rebuild it (torch, the
`train` extra).
"""
