# The version of the nsed release this package belongs to (meson.build's
# project version; tests/python checks that they agree).
__version__ = "0.4.0"
