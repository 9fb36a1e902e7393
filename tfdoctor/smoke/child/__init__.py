"""Scripts run by path in the examined interpreter (TensorFlow and NumPy only; no tfdoctor)."""
