"""Static files for production: hashed names, compressed copies, and ES module imports.

The pages' scripts are ES modules that import one another by relative path. Hashing only
the names the templates ask for would leave those imports on the unhashed files, which
nginx also serves as immutable for 30 days: after a deploy a browser could run a new page
module with a stale import. Django rewrites the import paths to the hashed names once this
is switched on.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleAwareStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
