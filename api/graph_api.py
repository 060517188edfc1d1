from flask import Blueprint

bp = Blueprint("graph", __name__)
