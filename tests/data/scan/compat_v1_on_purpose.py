"""TF1 code ported the documented way: import tensorflow.compat.v1 as tf. Nothing breaks (its
optimizers keep get_slot and get_slot_names, which the Keras optimizers of 2.11 lack)."""

import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def build():
    x = tf.placeholder(tf.float32, [None, 3])
    w = tf.get_variable("w", [3, 1])
    y = tf.matmul(x, w)
    loss = tf.reduce_mean(tf.square(y))
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
    return x, loss, train_op


def slots(w):
    optimizer = tf.train.AdamOptimizer(0.01)
    return optimizer.get_slot_names(), optimizer.get_slot(w, "m")


def run():
    x, loss, train_op = build()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver = tf.train.Saver()
        for _ in range(10):
            sess.run(train_op, feed_dict={x: [[1.0, 2.0, 3.0]]})
        saver.save(sess, "/tmp/ckpt")
        return sess.run(loss, feed_dict={x: [[1.0, 2.0, 3.0]]})
