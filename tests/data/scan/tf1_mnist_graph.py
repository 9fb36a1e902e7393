"""A TensorFlow 1 graph-mode classifier, in the shape of the TF1-era tutorials."""

import numpy as np
import tensorflow as tf
from tensorflow.contrib import layers as contrib_layers  # expect: scan.tf-contrib

flags = tf.app.flags  # expect: scan.tf1-app-flags
flags.DEFINE_integer("batch_size", 128, "Batch size.")
FLAGS = flags.FLAGS

tf.logging.set_verbosity(tf.logging.INFO)  # expect: scan.tf1-logging


def model_fn(images, num_classes=10):
    with tf.variable_scope("mnist", reuse=tf.AUTO_REUSE):  # expect: scan.tf1-variable-scope
        w = tf.get_variable(  # expect: scan.tf1-variable-scope
            "w",
            [784, num_classes],
            initializer=contrib_layers.xavier_initializer(),  # said at the import
        )
        b = tf.Variable(tf.zeros([num_classes]), name="b")
        logits = tf.matmul(images, w) + b
    return logits


def main(_):
    x = tf.placeholder(tf.float32, [None, 784], name="x")  # expect: scan.tf1-placeholder
    y = tf.placeholder(tf.int64, [None])  # expect: scan.tf1-placeholder
    logits = model_fn(x)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    global_step = tf.train.get_or_create_global_step()  # expect: scan.tf1-train-misc
    train_op = tf.train.AdamOptimizer(1e-3).minimize(loss, global_step=global_step)  # expect: scan.tf1-train-optimizers
    tf.summary.scalar("loss", loss)  # expect: scan.tensorboard-summary-ops
    merged = tf.summary.merge_all()  # expect: scan.tf1-summary-v1
    saver = tf.train.Saver(max_to_keep=3)  # expect: scan.tf1-saver
    config = tf.ConfigProto()  # expect: scan.tf1-config-proto
    config.gpu_options.allow_growth = True
    with tf.Session(config=config) as sess:  # expect: scan.tf1-session
        writer = tf.summary.FileWriter("/tmp/logs", sess.graph)  # expect: scan.tf1-summary-v1
        sess.run(tf.global_variables_initializer())  # expect: scan.tf1-initializers
        for step in range(100):
            batch = np.random.rand(FLAGS.batch_size, 784).astype(np.float32)
            labels = np.random.randint(0, 10, FLAGS.batch_size)
            _, summary = sess.run([train_op, merged], feed_dict={x: batch, y: labels})
            writer.add_summary(summary, step)
        saver.save(sess, "/tmp/model.ckpt")
        probs = tf.nn.softmax(logits)
        noise = tf.random_normal([1])  # expect: scan.api-moved-to-compat-v1
        as_float = tf.to_float(y)  # expect: scan.tf1-casts
        del probs, noise, as_float


if __name__ == "__main__":
    tf.app.run()  # expect: scan.tf1-app-flags
