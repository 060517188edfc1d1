"""Where the shipped data lives (data/ beside the packages)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
DEFAULT_CORPUS = DATA_DIR / "corpus"
ONTOLOGY = DATA_DIR / "ontology.ttl"
SHAPES = DATA_DIR / "shapes.ttl"
TAXONOMY = DATA_DIR / "taxonomy.ttl"
LEXICONS = DATA_DIR / "lexicons"
#: trained models (data/models/*.md says how each is made)
MODELS = DATA_DIR / "models"
DEFAULT_EXPORTS = Path("exports")
