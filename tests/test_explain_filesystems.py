"""TensorFlow's remote file systems (s3://, hdfs://, gs://, az://, http://) and what they need
from the environment: the settings they read, unset or wrong, and the tensorflow-io release
that registers them from TensorFlow 2.6."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity
from tfdoctor.signatures import load_signatures

_ENV = "filesystem-env-misconfigured"


def _causes(text: str) -> set[str]:
    return {f.cause for f in explained(text).findings if f.cause}


@pytest.mark.parametrize(
    "line",
    [
        "The authorization header is malformed; the region 'us-east-1' is wrong; expecting "
        "'ap-northeast-1'",
        "tensorflow.python.framework.errors_impl.UnknownError: AuthorizationHeaderMalformed: "
        "The authorization header is malformed; the region 'us-east-1' is wrong; expecting "
        "'ap-northeast-1'",
    ],
    ids=["bare", "raised"],
)
def test_s3s_region_refusal_sets_the_region_it_names(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == _ENV
    fix = fix_text(top)
    assert "export AWS_REGION=ap-northeast-1" in fix and "AWS_SDK_LOAD_CONFIG" in fix
    # The region it was signed for is not the one to set.
    assert "AWS_REGION=us-east-1" not in fix
    # S3_REGION and AWS_SDK_LOAD_CONFIG are TensorFlow 2.5's own file system's: tensorflow-io
    # reads neither, and its source is not where they are read.
    assert "2.5 and older's own also S3_REGION" in fix
    assert any(
        link.endswith("/v2.5.0/tensorflow/core/platform/s3/s3_file_system.cc")
        for link in load_signatures().by_id("s3-region-wrong").sources
    )


#: S3's PermanentRedirect as the AWS SDK for C++ logs it (code and message on lines of their
#: own) and as TensorFlow raises it, in S3's older and newer wording.
_REDIRECTS = (
    "Encountered Unknown AWSError\nPermanentRedirect\nThe bucket you are attempting to access "
    "must be addressed using the specified endpoint. Please send all future requests to this "
    "endpoint.:\n",
    "tensorflow.python.framework.errors_impl.UnknownError: PermanentRedirect: The bucket that "
    "you are attempting to access must be addressed using the specified endpoint. Send all "
    "future requests to this endpoint.\n",
)


def test_s3s_permanent_redirect_asks_for_the_buckets_region() -> None:
    for text in _REDIRECTS:
        top = top_error(explained(text))
        assert top.cause == _ENV
        fix = fix_text(top)
        assert "PermanentRedirect" in fix and "S3_ENDPOINT" in fix
        # The message names no region: the fix asks for it rather than inventing one.
        assert "export AWS_REGION=<the bucket's region>" in fix
        assert "get-bucket-location" in fix


def test_s3s_403_names_keys_region_and_an_endpoint_with_its_scheme() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.FailedPreconditionError: AWS Credentials have "
        "not been set properly. Unable to access the specified S3 location "
        "[Op:CreateSummaryFileWriter]\n"
    )
    top = top_error(explained(text))
    assert top.cause == _ENV
    fix = fix_text(top)
    assert "AWS_ACCESS_KEY_ID" in fix and "AWS_SECRET_ACCESS_KEY" in fix and "AWS_REGION" in fix
    assert "S3_ENDPOINT" in fix and "https://host" in fix
    # Nothing shows a plain-http endpoint: TLS stays on.
    assert "S3_USE_HTTPS=0" not in fix and "S3_VERIFY_SSL=0" not in fix


def test_a_plain_http_endpoint_shown_turns_tls_off() -> None:
    text = (
        'os.environ["S3_ENDPOINT"] = "http://minio.lab.internal:9000"\n'
        "FailedPreconditionError: AWS Credentials have not been set properly. Unable to access "
        "the specified S3 location\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "export S3_USE_HTTPS=0" in fix
    # Plain http has no certificate to check: turning verification off changes nothing there
    # and would outlive a move to https.
    assert "S3_VERIFY_SSL" not in fix


def test_a_bare_endpoint_host_is_not_called_wrong() -> None:
    # The S3 file system prefixes a bare S3_ENDPOINT with its scheme (https unless
    # S3_USE_HTTPS=0), as the object-missing fix itself sets one.
    text = (
        "FailedPreconditionError: AWS Credentials have not been set properly. Unable to access "
        "the specified S3 location\n"
    )
    assert "not a bare host name" not in fix_text(top_error(explained(text)))


def test_an_s3_object_reported_missing_asks_first_then_names_region_and_endpoint() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: Object "
        "s3://lake/exports/day=7/part-00003.snappy.parquet does not exist "
        "[Op:IO>ParquetReadableInfo]\n"
    )
    findings = [f for f in explained(text).findings if f.cause == _ENV]
    assert findings and findings[0].severity is Severity.WARNING
    fix = fix_text(findings[0])
    assert "aws s3 ls" in fix and "AWS_REGION" in fix and "S3_ENDPOINT" in fix


def test_gcs_refusing_an_anonymous_caller_is_its_credentials() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.PermissionDeniedError: Error executing an HTTP "
        "request: HTTP response code 401 with body 'Anonymous caller does not have "
        "storage.objects.list access to the Google Cloud Storage bucket.'\n"
    )
    top = top_error(explained(text))
    assert top.cause == _ENV and "GOOGLE_APPLICATION_CREDENTIALS" in fix_text(top)


def test_gcs_token_warnings_and_metadata_retries_are_not_a_credentials_failure() -> None:
    # What the GCS client logs on the way to a public bucket, off Google Cloud.
    text = (
        "W tensorflow/core/platform/cloud/google_auth_provider.cc:184] All attempts to get a "
        "Google authentication bearer token failed, returning an empty token. Retrieving token "
        'from files failed with "Not found: Could not locate the credentials file.".\n'
        "I tensorflow/core/platform/cloud/retrying_utils.cc:73] The operation failed and will "
        "be automatically retried in 0.5 seconds (attempt 2 out of 10), caused by: Unavailable: "
        "Error executing an HTTP request: libcurl code 6 meaning 'Couldn't resolve host name'\n"
    )
    assert _ENV not in _causes(text)


@pytest.mark.parametrize(
    "context",
    [
        '    ds = tf.data.TFRecordDataset("hdfs://nn.example:8020/train/part-0")\n',
        "export HADOOP_HDFS_HOME=/opt/hadoop-3.3.6\n",
        '  File "/srv/venv/lib/python3.8/site-packages/tensorflowonspark/TFSparkNode.py", line '
        "400, in _mapfn\n",
    ],
    ids=["hdfs-path", "hadoop-home", "tensorflowonspark"],
)
def test_a_jvm_library_beside_hdfs_is_the_hdfs_file_systems_environment(context: str) -> None:
    text = context + "ERROR: libjvm.so: cannot open shared object file: No such file or directory\n"
    top = top_error(explained(text))
    assert top.cause == _ENV
    fix = fix_text(top)
    assert "JAVA_HOME" in fix and "HADOOP_HDFS_HOME" in fix and "hadoop classpath --glob" in fix
    assert "jre/lib/amd64/server" in fix and "$JAVA_HOME/lib/server" in fix


def test_libhdfs_not_loading_for_an_hdfs_path_is_the_environment() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: libhdfs.so: cannot open shared "
        "object file: No such file or directory\n"
    )
    assert top_error(explained(text)).cause == _ENV


def test_a_jvm_library_without_hdfs_stays_a_missing_library() -> None:
    # JPype, rJava and other bridges load a JVM too: nothing says HDFS.
    text = "OSError: libjvm.so: cannot open shared object file: No such file or directory\n"
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"


def test_hadoops_load_note_alone_stays_harmless() -> None:
    text = (
        "E tensorflow/core/platform/hadoop/hadoop_file_system.cc:132] HadoopFileSystem load "
        "error: libhdfs.so: cannot open shared object file: No such file or directory\n"
    )
    assert _ENV not in _causes(text)


def test_the_s3_scheme_unregistered_asks_for_tensorflow_io_and_its_import() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.UnimplementedError: File system scheme 's3' "
        "not implemented (file: 's3://models/run-4/saved_model.pb')\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "tensorflow-io" in fix and "import tensorflow_io" in fix
    # No TensorFlow shown: no release is named.
    assert "tensorflow-io==" not in fix


def test_a_tensorflow_io_of_another_line_is_moved_to_the_one_for_tensorflow() -> None:
    text = (
        "tensorflow                   2.13.0\n"
        "tensorflow-io                0.32.0\n"
        "UnimplementedError: File system scheme 'hdfs' not implemented\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    # The companion table's release for 2.13 (tensorflow<2.14.0,>=2.13.0), not 0.32's line.
    assert 'tensorflow-io==0.34.*"' in fix and "hdfs://" in fix


def test_a_tensorflow_that_served_the_scheme_itself_gets_no_tensorflow_io() -> None:
    # TensorFlow 2.4's tensorflow-io (0.17) registers s3e://, not s3://: installing it and
    # importing it leaves s3:// unserved.
    text = (
        "TensorFlow version: 2.4.1\n"
        "tensorflow.python.framework.errors_impl.UnimplementedError: File system scheme 's3' "
        "not implemented (file: 's3://models/run-4/saved_model.pb')\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "tensorflow-io==" not in fix and "s3e://" in fix and "2.6" in fix


def test_http_on_an_older_tensorflow_is_still_tensorflow_ios() -> None:
    text = (
        "TensorFlow version: 2.4.1\n"
        "UnimplementedError: File system scheme 'http' not implemented (file: 'http://h/x')\n"
    )
    assert 'tensorflow-io==0.17.*"' in fix_text(top_error(explained(text)))


@pytest.mark.parametrize(
    "line",
    [
        # A TPU reads only gs://: its refusal of a local path is not a missing plugin.
        "UnimplementedError: File system scheme '[local]' not implemented (file: '/tmp/ckpt')",
        "UnimplementedError: File system scheme 'gs' not implemented",
    ],
    ids=["local", "gs"],
)
def test_other_schemes_are_not_tensorflow_ios(line: str) -> None:
    report = explained(line + "\n")
    assert not any(
        f.cause == "companion-mismatch" and "tensorflow_io" in fix_text(f)
        for f in report.findings
        if f.fix is not None
    )


def test_region_words_without_s3s_expectation_are_not_this() -> None:
    text = "INFO deploy: the region 'us-east-1' is wrong for this stack, skipping\n"
    assert _ENV not in _causes(text)
