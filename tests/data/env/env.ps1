# TensorFlow environment from tfdoctor 0.1.0. Use: tfdoctor env --shell powershell | Out-String | Invoke-Expression
# map GPU memory as needed, not nearly all of it at start (https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth)
$env:TF_FORCE_GPU_ALLOW_GROWTH = 'true'
# CUDA's stream-ordered allocator (CUDA 11.2+): grows on demand and fragments less; TensorFlow's out-of-memory message suggests it
$env:TF_GPU_ALLOCATOR = 'cuda_malloc_async'
# TensorFlow's C++ runtime hides its INFO and WARNING lines
$env:TF_CPP_MIN_LOG_LEVEL = '2'
# XLA compiles GPU kernels with libdevice, found under /opt/cuda-12.3, where it does not look by itself
$env:XLA_FLAGS = '--xla_gpu_autotune_level=2 --xla_gpu_cuda_data_dir=/opt/cuda-12.3'
# TensorFlow's RUNPATH reaches only the nvidia/*/lib beside it; the cudnn wheels sit in another site directory
$env:LD_LIBRARY_PATH = '/home/ana/.local/lib/python3.11/site-packages/nvidia/cudnn/lib:/usr/local/lib'
