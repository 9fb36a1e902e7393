"""Trains the classifier and saves it the Keras 2 way."""

import tensorflow as tf

from model import build


def main(train_dir):
    images = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1.0)
    flow = images.flow_from_directory(train_dir, target_size=(64, 64))
    model = build(flow.num_classes)
    board = tf.keras.callbacks.TensorBoard(log_dir="logs")
    model.fit_generator(flow, epochs=3, callbacks=[board])
    model.save("saved_model_dir")
    model.save_weights("ckpt/weights")


if __name__ == "__main__":
    main("data/train")
