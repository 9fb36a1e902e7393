"""A Keras 2 training script: standalone keras imports, generators, the SavedModel format."""

import os
import keras
import numpy as np
from keras import backend as K
from keras.callbacks import ModelCheckpoint, TensorBoard  # expect: scan.tensorboard-callback
from keras.layers import Conv2D, Dense, Dropout, Flatten, MaxPooling2D
from keras.layers.experimental.preprocessing import Rescaling  # expect: scan.keras3-experimental-preprocessing
from keras.models import Sequential, load_model
from keras.optimizers import Adam
from keras.preprocessing.image import ImageDataGenerator  # expect: scan.keras3-behaviour-change
from keras.utils.np_utils import to_categorical  # expect: scan.keras3-behaviour-change


def build(input_shape, classes):
    model = Sequential()
    model.add(Rescaling(1.0 / 255, input_shape=input_shape))
    model.add(Conv2D(32, (3, 3), activation="relu"))
    model.add(MaxPooling2D(pool_size=(2, 2)))
    model.add(Dropout(0.25))
    model.add(Flatten())
    model.add(Dense(classes, activation="softmax"))
    model.compile(
        loss="categorical_crossentropy",
        optimizer=Adam(lr=1e-3, decay=1e-6),  # expect: scan.keras3-optimizer-lr, scan.keras3-optimizer-decay
        metrics=["accuracy"],
    )
    return model


def main(data_dir="data"):
    K.set_image_data_format("channels_last")
    datagen = ImageDataGenerator(rotation_range=10, horizontal_flip=True)
    train = datagen.flow_from_directory(os.path.join(data_dir, "train"), target_size=(64, 64))
    model = build((64, 64, 3), train.num_classes)
    callbacks = [
        ModelCheckpoint("best.hdf5", save_best_only=True),  # expect: scan.keras3-checkpoint-path
        TensorBoard(log_dir="logs"),
    ]
    model.fit_generator(train, steps_per_epoch=100, epochs=5, callbacks=callbacks)  # expect: scan.keras3-fit-generator
    shape = K.int_shape(model.output)  # expect: scan.keras3-behaviour-change
    print(shape, keras.__version__)
    model.save("saved_model_dir")  # expect: scan.keras3-save-savedmodel
    model.save("model.h5")  # expect: scan.keras3-save-h5
    model.save_weights("weights.h5")  # expect: scan.keras3-save-weights
    restored = load_model("saved_model_dir")  # expect: scan.keras3-load-savedmodel
    labels = to_categorical(np.arange(3))
    return restored, labels


if __name__ == "__main__":
    main()
