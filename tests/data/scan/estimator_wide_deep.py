"""An Estimator pipeline, as the TF 1.x/2.x wide-and-deep samples were written."""

import tensorflow as tf


class WideDeepTrainer:
    """Builds feature columns and an Estimator, trains and exports it."""

    def __init__(self, model_dir, hidden_units=(64, 32)):
        self.model_dir = model_dir
        self.columns = [tf.feature_column.numeric_column("age")]
        self.run_config = tf.estimator.RunConfig(save_checkpoints_steps=500)  # expect: scan.tf-estimator
        self.estimator = tf.estimator.DNNClassifier(  # expect: scan.tf-estimator
            feature_columns=self.columns,
            hidden_units=list(hidden_units),
            model_dir=model_dir,
            config=self.run_config,
        )

    def input_fn(self, features, labels, batch_size=32):
        ds = tf.data.Dataset.from_tensor_slices((dict(features), labels))
        return ds.shuffle(1000).batch(batch_size).prefetch(tf.data.AUTOTUNE)

    def train(self, features, labels, steps=1000):
        spec = tf.estimator.TrainSpec(lambda: self.input_fn(features, labels), max_steps=steps)  # expect: scan.tf-estimator
        eval_spec = tf.estimator.EvalSpec(lambda: self.input_fn(features, labels))  # expect: scan.tf-estimator
        tf.estimator.train_and_evaluate(self.estimator, spec, eval_spec)  # expect: scan.tf-estimator

    def export(self, path):
        serving = tf.estimator.export.build_parsing_serving_input_receiver_fn(  # expect: scan.tf-estimator
            tf.feature_column.make_parse_example_spec(self.columns)
        )
        return self.estimator.export_saved_model(path, serving)
