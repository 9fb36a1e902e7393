"""Standard-library-only scripts run by path in a child interpreter; each prints one JSON doc.

They must run on Python 3.7 and later, since the examined interpreter may be that old.
"""
